import Dispatch
import Synchronization
import Testing
import Tick
import TickTesting

/// The real schedulers used from many threads at once (and clean under
/// `--sanitize=thread`). No sleeping: every wait is on a `TestExpectation`
/// with a generous timeout (a safety net, not a timing assertion).
///
/// What `DispatchQueueScheduler` guarantees, and so what is asserted:
/// - an action runs at most once, on the scheduler's queue, never overlapping
///   another action of the same scheduler;
/// - an action that is not disposed runs exactly once;
/// - disposing claims the action unless the queue already claimed it to run:
///   an action disposed from another thread *while it is due* may still run
///   (it was already starting), but one whose `dispose` returned before its
///   deadline never runs (Dispatch never runs work early, so that is a
///   race-free check);
/// - a periodic action disposed from another thread can start at most once
///   more (a tick already past its check when `dispose` was called), and never
///   after that.
@Suite(.checksResourceLeaks) struct RealSchedulerStressTests {
    static let threads = 8
    static let perThread = 400

    /// How each scheduled action is treated, by its index.
    enum Kind: CaseIterable {
        /// Scheduled at once and kept: runs exactly once.
        case immediateKept
        /// Scheduled at once and disposed at once by the scheduling thread: may run (race), at most once.
        case immediateDisposed
        /// Due in 100 ms and disposed from another thread right away: never runs
        /// if `dispose` returned before the deadline.
        case farDisposed
        /// Due after a few microseconds and kept: runs exactly once.
        case delayedKept

        init(_ index: Int) { self = Self.allCases[index % Self.allCases.count] }
        var isKept: Bool { self == .immediateKept || self == .delayedKept }
    }

    /// Per-action run counters and the queue-discipline checks. (`Locked`,
    /// not `Synchronization.Mutex`, throughout: the thread sanitizer
    /// understands its pthread lock and reports false races through `Mutex`.)
    final class Ledger: @unchecked Sendable {
        let lock = Locked<[Int]>([])
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let offQueue = Atomic<Int>(0)

        init(count: Int) { lock.withLock { $0 = Array(repeating: 0, count: count) } }

        func ran(_ index: Int, onQueue: Bool) {
            if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add(1, ordering: .relaxed) }
            if !onQueue { offQueue.add(1, ordering: .relaxed) }
            lock.withLock { $0[index] += 1 }
            inside.store(false, ordering: .releasing)
        }

        var runs: [Int] { lock.withLock { $0 } }
    }

    @Test func dispatchSchedulerScheduledAndDisposedFromManyThreads() async {
        let queue = DispatchQueue(label: "tick.stress.dispatch")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let scheduler = DispatchQueueScheduler(queue: queue)
        let total = Self.threads * Self.perThread
        let ledger = Ledger(count: total)
        let kept = (0..<total).filter { Kind($0).isKept }.count
        let allKeptRan = TestExpectation(count: kept)
        // Long enough that most far-off actions are disposed before it
        // passes, however slowly the scheduling loop runs (under TSan, beside
        // other stress suites on 2 cores, 100 ms was not: none beat it once).
        let farDelay = Duration.seconds(1)
        // (index, deadline no later than the real one, the work to dispose)
        let toDisposeElsewhere = Locked<[(Int, SchedulerInstant, any Disposable)]>([])
        let disposedInTime = Locked<Set<Int>>([])
        let disposedHere = Locked<[any Disposable]>([])

        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for offset in 0..<Self.perThread {
                let index = thread * Self.perThread + offset
                let kind = Kind(index)
                let action = {
                    ledger.ran(index, onQueue: DispatchQueue.getSpecific(key: key) == true)
                    if kind.isKept { allKeptRan.fulfill() }
                }
                switch kind {
                case .immediateKept:
                    scheduler.schedule(action)
                case .immediateDisposed:
                    let work = scheduler.schedule(action)
                    work.dispose()
                    disposedHere.withLock { $0.append(work) }
                case .farDisposed:
                    let deadline = SchedulerInstant.monotonicNow + farDelay
                    let work = scheduler.schedule(after: farDelay, action)
                    toDisposeElsewhere.withLock { $0.append((index, deadline, work)) }
                case .delayedKept:
                    scheduler.schedule(after: .microseconds(offset % 50), action)
                }
            }
        }
        // The far-off actions are disposed by other threads than the ones that scheduled them.
        let farCount = toDisposeElsewhere.withLock { $0.count }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for position in stride(from: thread, to: farCount, by: Self.threads) {
                let (index, deadline, work) = toDisposeElsewhere.withLock { $0[position] }
                work.dispose()
                if SchedulerInstant.monotonicNow < deadline { disposedInTime.withLock { _ = $0.insert(index) } }
            }
        }

        #expect(await allKeptRan.wait(timeout: .seconds(300)))
        // Wait past the far deadlines, then for anything still queued.
        let pastFarDeadlines = TestExpectation()
        scheduler.schedule(after: farDelay * 2) { pastFarDeadlines.fulfill() }
        #expect(await pastFarDeadlines.wait(timeout: .seconds(300)))
        #expect(await drain(scheduler))
        let inTime = disposedInTime.withLock { $0 }
        // The check below must not be vacuous: most far disposals beat their deadline.
        #expect(inTime.count > 0)

        let runs = ledger.runs
        for (index, count) in runs.enumerated() {
            switch Kind(index) {
            case .immediateKept, .delayedKept: #expect(count == 1, "kept action \(index) ran \(count) times")
            case .immediateDisposed: #expect(count <= 1, "disposed action \(index) ran \(count) times")
            case .farDisposed:
                #expect(count <= 1, "disposed action \(index) ran \(count) times")
                if inTime.contains(index) { #expect(count == 0, "action \(index) disposed before its deadline ran") }
            }
        }
        #expect(!allKeptRan.isOverfulfilled)
        #expect(ledger.overlaps.load(ordering: .relaxed) == 0)
        #expect(ledger.offQueue.load(ordering: .relaxed) == 0)
        let disposed = disposedHere.withLock { $0 } + toDisposeElsewhere.withLock { $0.map(\.2) }
        #expect(disposed.allSatisfy { ($0 as? any Cancelable)?.isDisposed == true })
    }

    @Test func dispatchPeriodicTimersDisposedFromManyThreads() async {
        let scheduler = DispatchQueueScheduler(label: "tick.stress.periodic")
        let timers = 16
        let ticks = Locked<[Int]>(Array(repeating: 0, count: timers))
        let lateStarts = Locked<[Int]>(Array(repeating: 0, count: timers))
        let disposeReturned = Locked<[Bool]>(Array(repeating: false, count: timers))
        let threeTicksEach = TestExpectation(count: timers)
        let periodics = Locked((0..<timers).map { timer in
            scheduler.schedulePeriodic(after: .microseconds(timer * 10), period: .microseconds(500)) {
                if disposeReturned.withLock({ $0[timer] }) { lateStarts.withLock { $0[timer] += 1 } }
                let count = ticks.withLock { ticks -> Int in
                    ticks[timer] += 1
                    return ticks[timer]
                }
                if count == 3 { threeTicksEach.fulfill() }
            }
        })
        #expect(await threeTicksEach.wait(timeout: .seconds(300)))
        DispatchQueue.concurrentPerform(iterations: timers) { timer in
            periodics.withLock { $0[timer] }.dispose()
            disposeReturned.withLock { $0[timer] = true }
        }
        #expect(await drain(scheduler))
        let afterDrain = ticks.withLock { $0 }
        #expect(await drain(scheduler))
        #expect(ticks.withLock { $0 } == afterDrain)
        #expect(afterDrain.allSatisfy { $0 >= 3 })
        #expect(lateStarts.withLock { $0 }.allSatisfy { $0 <= 1 })
    }

    @Test func currentThreadTrampolinesOnManyThreadsAreIndependent() {
        // On each thread: a root action schedules 5 children, each child 3
        // grandchildren; the root disposes child 2 before it runs. Each
        // thread's trampoline runs them breadth first, all before the outer
        // `schedule` returns, on that thread only.
        let expected =
            ["root"] + [0, 1, 3, 4].map { "c\($0)" } + [0, 1, 3, 4].flatMap { child in (0..<3).map { "g\(child).\($0)" } }
        let logs = Locked<[[String]]>(Array(repeating: [], count: Self.threads))
        let mismatches = Atomic<Int>(0)

        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for _ in 0..<50 {
                // Only this thread touches `log`; a foreign write would be a TSan report.
                final class Log: @unchecked Sendable { var entries: [String] = [] }
                let log = Log()
                #expect(CurrentThreadScheduler.isScheduleRequired)
                CurrentThreadScheduler.instance.schedule {
                    log.entries.append("root")
                    var children: [any Disposable] = []
                    for child in 0..<5 {
                        children.append(
                            CurrentThreadScheduler.instance.schedule {
                                log.entries.append("c\(child)")
                                for grandchild in 0..<3 {
                                    CurrentThreadScheduler.instance.schedule {
                                        log.entries.append("g\(child).\(grandchild)")
                                    }
                                }
                            })
                    }
                    children[2].dispose()
                }
                if log.entries != expected { mismatches.add(1, ordering: .relaxed) }
                logs.withLock { $0[thread] = log.entries }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(logs.withLock { $0 }.allSatisfy { $0 == expected })
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    @Test func synchronousSubscriptionsOnManyThreadsEachSeeTheirOwnSequence() {
        // Subscribing runs on each thread's own trampoline: `from` + `merge`
        // interleave per thread exactly as on one thread, whatever the others do.
        let results = Locked<[[Int]]>(Array(repeating: [], count: Self.threads))
        let terminals = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            final class Box: @unchecked Sendable { var values: [Int] = [] }
            let box = Box()
            let base = thread * 1_000
            _ = Observable.merge(
                Observable.from(Array(base..<base + 300)), Observable.from(Array(base + 500..<base + 800))
            )
            .subscribe(onNext: { box.values.append($0) }, onCompleted: { terminals.add(1, ordering: .relaxed) })
            results.withLock { $0[thread] = box.values }
        }
        #expect(terminals.load(ordering: .relaxed) == Self.threads)
        for (thread, values) in results.withLock({ $0 }).enumerated() {
            let base = thread * 1_000
            let interleaved = (0..<300).flatMap { [base + $0, base + 500 + $0] }
            #expect(values == interleaved)
        }
    }
}
