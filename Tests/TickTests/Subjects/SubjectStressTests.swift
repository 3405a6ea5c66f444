import Dispatch
import Synchronization
import Testing
import Tick
import TickTesting

/// Subjects from many threads at once: every event accounted for, nothing after
/// a terminal event, no crash (and clean under `--sanitize=thread`).
@Suite(.checksResourceLeaks) struct SubjectStressTests {
    @Test func concurrentSendersLoseNothing() {
        let subject = PublishSubject<Int>()
        let total = Atomic<Int>(0)
        let sum = Atomic<Int>(0)
        let subscription = subject.subscribe(onNext: { value in
            total.add(1, ordering: .relaxed)
            sum.add(value, ordering: .relaxed)
        })
        let threads = 8
        let perThread = 5_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread { subject.onNext(thread * perThread + index) }
        }
        let n = threads * perThread
        #expect(total.load(ordering: .relaxed) == n)
        #expect(sum.load(ordering: .relaxed) == n * (n - 1) / 2)
        subscription.dispose()
    }

    @Test func subscribingAndDisposingWhileEmitting() {
        let subject = PublishSubject<Int>()
        let received = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            if worker == 0 {
                for value in 0..<20_000 { subject.onNext(value) }
            } else {
                for _ in 0..<500 {
                    let subscription = subject.subscribe(onNext: { _ in received.add(1, ordering: .relaxed) })
                    subscription.dispose()
                }
            }
        }
        #expect(!subject.hasObservers)
        // Any number received is fine; what matters is no crash, no race, no leak.
        #expect(received.load(ordering: .relaxed) >= 0)
    }

    @Test func nothingAfterTheTerminalEventUnderRaces() {
        for _ in 0..<50 {
            let subject = ReplaySubject<Int>.create(bufferSize: 4)
            let afterTerminal = Atomic<Int>(0)
            let terminals = Atomic<Int>(0)
            let subscriptions = Locked<[any Disposable]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                switch worker {
                case 0:
                    for value in 0..<200 { subject.onNext(value) }
                    subject.onCompleted()
                    subject.onNext(-1)
                default:
                    for _ in 0..<20 {
                        let stopped = Atomic<Bool>(false)
                        let subscription = subject.subscribe { event in
                            if stopped.load(ordering: .relaxed) { afterTerminal.add(1, ordering: .relaxed) }
                            if event.isStopEvent {
                                stopped.store(true, ordering: .relaxed)
                                terminals.add(1, ordering: .relaxed)
                            }
                        }
                        subscriptions.withLock { $0.append(subscription) }
                    }
                }
            }
            #expect(afterTerminal.load(ordering: .relaxed) == 0)
            #expect(terminals.load(ordering: .relaxed) == 60, "every subscriber sees exactly one terminal event")
            subscriptions.withLock { list in list.forEach { $0.dispose() } }
        }
    }

    @Test func behaviorSubjectSubscribersSeeAnIncreasingSequence() {
        let subject = BehaviorSubject(value: 0)
        let violations = Atomic<Int>(0)
        let subscriptions = Locked<[any Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for value in 1...20_000 { subject.onNext(value) }
            } else {
                for _ in 0..<50 {
                    let last = Mutex(-1)
                    let subscription = subject.subscribe(onNext: { value in
                        last.withLock { previous in
                            if value <= previous { violations.add(1, ordering: .relaxed) }
                            previous = value
                        }
                    })
                    subscriptions.withLock { $0.append(subscription) }
                }
            }
        }
        #expect(violations.load(ordering: .relaxed) == 0)
        subscriptions.withLock { list in list.forEach { $0.dispose() } }
    }
}
