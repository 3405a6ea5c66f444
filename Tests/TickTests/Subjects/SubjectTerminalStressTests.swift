import Dispatch
import Testing
import Tick
import TickTesting

/// Subjects whose terminal events race each other, and replaying subjects
/// subscribed to while they emit (clean under `--sanitize=thread`).
@Suite(.checksResourceLeaks) struct SubjectTerminalStressTests {
    /// What one observer saw, checked as it arrives. (`Locked` is built on a
    /// pthread lock, which the thread sanitizer understands; it reports false
    /// races through `Synchronization.Mutex` on Linux.)
    final class Ledger: @unchecked Sendable {
        let lock = Locked<(values: [Int], terminals: Int, afterTerminal: Int)>(([], 0, 0))

        func on(_ event: Event<Int>) {
            lock.withLock { state in
                if state.terminals > 0 { state.afterTerminal += 1 }
                switch event {
                case .next(let value): state.values.append(value)
                case .error, .completed: state.terminals += 1
                }
            }
        }
    }

    /// Four threads send 100 elements each at the same time; once they are
    /// done, four threads send a terminal event at the same time (two
    /// complete, two fail), each followed by one more element. Three
    /// subscribers observe from the start and one subscribes after the end.
    ///
    /// Elements and terminal events are not sent concurrently with each
    /// other: a subject delivers outside its lock, so an element racing a
    /// terminal event could reach an observer after it (the Rx contract asks
    /// senders to serialize; only terminals racing terminals is tested here).
    func race<S: SubjectType & Sendable>(_ subject: S) -> [Ledger] where S.Element == Int {
        let early = (0..<3).map { _ in Ledger() }
        let subscriptions = early.map { ledger in subject.subscribe(AnyObserver(eventHandler: { ledger.on($0) })) }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<100 { subject.onNext(worker * 1_000 + index) }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker.isMultiple(of: 2) { subject.onCompleted() } else { subject.onError(TestError(worker)) }
            subject.onNext(-1)
        }
        let late = Ledger()
        let lateSubscription = subject.subscribe(AnyObserver(eventHandler: { late.on($0) }))
        (subscriptions + [lateSubscription]).forEach { $0.dispose() }
        return early + [late]
    }

    /// Every element sent, each exactly once.
    static let everything = Set((0..<4).flatMap { worker in (0..<100).map { worker * 1_000 + $0 } })

    /// The checks every subject shares: one terminal each, nothing after it,
    /// every element accounted for exactly once, each sender's elements in
    /// order.
    func check(_ ledgers: [Ledger]) {
        let seen = ledgers.prefix(3).map { $0.lock.withLock { $0 } }
        for state in seen {
            #expect(state.values.count == 400)
            #expect(Set(state.values) == Self.everything)
            for worker in 0..<4 {
                let mine = state.values.filter { $0 / 1_000 == worker }
                #expect(mine == mine.sorted())
            }
        }
        for state in ledgers.map({ $0.lock.withLock { $0 } }) {
            #expect(state.terminals == 1)
            #expect(state.afterTerminal == 0)
        }
    }

    @Test func publishSubjectRacingTerminals() {
        for _ in 0..<30 {
            let ledgers = race(PublishSubject<Int>())
            check(ledgers)
            #expect(ledgers[3].lock.withLock { $0.values }.isEmpty, "a late subscriber gets only the terminal event")
        }
    }

    @Test func behaviorSubjectRacingTerminals() {
        for _ in 0..<30 {
            let ledgers = race(BehaviorSubject(value: 7))
            // Each early subscriber got the initial value first.
            #expect(ledgers.prefix(3).allSatisfy { $0.lock.withLock { $0.values.first } == 7 })
            ledgers.prefix(3).forEach { ledger in ledger.lock.withLock { _ = $0.values.removeFirst() } }
            check(ledgers)
            #expect(ledgers[3].lock.withLock { $0.values }.isEmpty)
        }
    }

    @Test func replaySubjectRacingTerminals() {
        for _ in 0..<30 {
            let ledgers = race(ReplaySubject<Int>.createUnbounded())
            check(ledgers)
            // The late subscriber replays everything, in the order it was stored.
            let replayed = ledgers[3].lock.withLock { $0.values }
            #expect(replayed.count == 400 && Set(replayed) == Self.everything)
        }
    }

    @Test func unboundedReplaySubscribersJoiningMidStreamMissNothing() {
        let subject = ReplaySubject<Int>.createUnbounded()
        let count = 2_000
        let ledgers = Locked<[Ledger]>([])
        let subscriptions = Locked<[any Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for value in 0..<count { subject.onNext(value) }
                subject.onCompleted()
            } else {
                for _ in 0..<20 {
                    let ledger = Ledger()
                    ledgers.withLock { $0.append(ledger) }
                    let subscription = subject.subscribe(AnyObserver(eventHandler: { ledger.on($0) }))
                    subscriptions.withLock { $0.append(subscription) }
                }
            }
        }
        // Whenever each one joined, replay plus live delivery is the whole
        // sequence, in order, exactly once, then the completion.
        let everything = Array(0..<count)
        for ledger in ledgers.withLock({ $0 }) {
            let state = ledger.lock.withLock { $0 }
            #expect(state.values == everything)
            #expect(state.terminals == 1)
            #expect(state.afterTerminal == 0)
        }
        subscriptions.withLock { list in list.forEach { $0.dispose() } }
    }
}
