import Dispatch
import Foundation
import Synchronization
import Testing
import Tick
import TickTesting

/// `ConcurrentDispatchQueueScheduler` and `OperationQueueScheduler` used from
/// many threads at once (run under `--sanitize=thread` in CI). Every wait is on
/// work that fulfils it; the timeouts are safety nets, not timing assertions.
///
/// What is asserted for both:
/// - an action that is not disposed runs exactly once; a disposed one at most
///   once (its dispose may race with its start);
/// - one periodic schedule never overlaps itself, even on a queue that runs
///   several actions at once;
/// - Tick's operators deliver the events of one subscription one at a time and
///   in order, although the scheduler runs their actions concurrently.
@Suite(.checksResourceLeaks) struct ConcurrentSchedulerStressTests {
    static let threads = 8
    static let perThread = 200

    /// A scheduler that runs up to 4 actions at once, and a way to wait until
    /// everything it queued has finished.
    enum Kind: CaseIterable, Sendable {
        case dispatch, operations

        func make() -> (scheduler: any Scheduler, finish: @Sendable () async -> Void) {
            switch self {
            case .dispatch:
                let queue = DispatchQueue(label: "tick.stress.concurrent", attributes: .concurrent)
                return (ConcurrentDispatchQueueScheduler(queue: queue), { await barrier(queue) })
            case .operations:
                let operations = OperationQueue()
                operations.maxConcurrentOperationCount = 4
                return (OperationQueueScheduler(operationQueue: operations), { await finish(operations) })
            }
        }
    }

    @Test(arguments: Kind.allCases) func schedulingAndDisposingFromManyThreads(_ kind: Kind) async {
        let (scheduler, finish) = kind.make()
        let total = Self.threads * Self.perThread
        let runs = Locked([Int](repeating: 0, count: total))
        let kept = TestExpectation(count: total / 2)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for step in 0..<Self.perThread {
                let index = thread * Self.perThread + step
                let keep = index.isMultiple(of: 2)
                let action = {
                    runs.withLock { $0[index] += 1 }
                    if keep { kept.fulfill() }
                }
                let work = step.isMultiple(of: 4)
                    ? scheduler.schedule(after: .microseconds(step % 7), action)
                    : scheduler.schedule(action)
                if !keep { work.dispose() }
            }
        }
        #expect(await kept.wait(timeout: .seconds(300)))
        await finish()
        let counts = runs.current
        for index in 0..<total {
            let count = counts[index]
            if index.isMultiple(of: 2) {
                #expect(count == 1, "kept action \(index) ran \(count) times")
            } else {
                #expect(count <= 1, "disposed action \(index) ran \(count) times")
            }
        }
        #expect(!kept.isOverfulfilled)
    }

    @Test(arguments: Kind.allCases) func periodicWorkNeverOverlapsItself(_ kind: Kind) async {
        let (scheduler, finish) = kind.make()
        let inside = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let ticks = TestExpectation(count: 50)
        let count = Atomic<Int>(0)
        let periodic = scheduler.schedulePeriodic(after: .zero, period: .microseconds(50)) {
            if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
                overlapped.store(true, ordering: .relaxed)
            }
            // Longer than the period, so later ticks come while this one runs.
            var spin = 0
            for value in 0..<20_000 { spin &+= value }
            blackHole(spin)
            inside.subtract(1, ordering: .acquiringAndReleasing)
            if count.add(1, ordering: .relaxed).newValue <= 50 { ticks.fulfill() }
        }
        #expect(await ticks.wait(timeout: .seconds(300)))
        periodic.dispose()
        await finish()
        let didOverlap = overlapped.load(ordering: .relaxed)
        #expect(!didOverlap)
    }

    @Test(arguments: Kind.allCases) func observeOnDeliversOneAtATimeInOrder(_ kind: Kind) async {
        let (scheduler, finish) = kind.make()
        // Per subscription: how many of its deliveries are running now.
        let inside = Locked([Int](repeating: 0, count: 4))
        let overlapped = Atomic<Bool>(false)
        let received = Locked<[Int]>([])
        let done = TestExpectation(count: 4)
        // Four subscriptions at once, each from its own source thread.
        let subscriptions = Locked<[any Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { source in
            let subscription = Observable.from(Array(0..<500))
                .map { source * 1000 + $0 }
                .observe(on: scheduler)
                .subscribe(
                    onNext: { value in
                        let running = inside.withLock { counts -> Int in
                            counts[source] += 1
                            return counts[source]
                        }
                        if running > 1 { overlapped.store(true, ordering: .relaxed) }
                        received.withLock { $0.append(value) }
                        inside.withLock { $0[source] -= 1 }
                    },
                    onCompleted: { done.fulfill() })
            subscriptions.withLock { $0.append(subscription) }
        }
        #expect(await done.wait(timeout: .seconds(300)))
        await finish()
        let all = received.current
        for source in 0..<4 {
            let own = all.filter { $0 / 1000 == source }
            #expect(own == (0..<500).map { source * 1000 + $0 }, "subscription \(source) out of order")
        }
        let didOverlap = overlapped.load(ordering: .relaxed)
        #expect(!didOverlap)
        subscriptions.withLock { $0.forEach { $0.dispose() } }
    }
}

@inline(never) private func blackHole(_ value: Int) {
    withExtendedLifetime(value) {}
}
