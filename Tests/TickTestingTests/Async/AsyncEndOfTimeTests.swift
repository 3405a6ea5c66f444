import Testing
import Tick
@testable import TickTesting

/// One rule for the end of time, synchronous and async alike
/// (Docs/AsyncAwait.md, "The virtual clock"; Docs/Schedulers.md): the clock
/// never passes `TestScheduler.endOfTime`; work and sleeps due at it run,
/// work and sleeps due later stay pending and never run.
@Suite(.checksResourceLeaks) struct AsyncEndOfTimeTests {
    /// The case: `delay(.seconds(Int64.max))` then the async `run()`
    /// gave `next(1) @ 9223372036854775807`; the synchronous `run()` kept it
    /// pending.
    @Test(arguments: [false, true])
    func aDelayPastTheEndNeverRuns(async: Bool) async {
        let scheduler = TestScheduler()
        let log = scheduler.createObserver(Int.self)
        let subscription = Observable.just(1).delay(.seconds(Int64.max), scheduler: scheduler).subscribe(log)
        if async { await scheduler.run() } else { runSynchronously(scheduler) }
        #expect(log.events.isEmpty)
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.clock == 0)
        subscription.dispose()
    }

    /// Entries at the end, one frame before and one frame after it.
    @Test(arguments: [false, true])
    func entriesAtTheEndPlusOrMinusOneFrame(async: Bool) async {
        let scheduler = TestScheduler()
        let end = scheduler.instant(for: TestScheduler.endOfTime)
        let ran = Locked<[String]>([])
        let before = scheduler.scheduleAt(TestTime(Int.max - 1)) { ran.withLock { $0.append("end-1") } }
        let at = scheduler.scheduleAt(TestScheduler.endOfTime) { ran.withLock { $0.append("end") } }
        let after = scheduler.schedule(after: (end + scheduler.frame) - scheduler.now) { ran.withLock { $0.append("end+1") } }
        if async { await scheduler.run() } else { runSynchronously(scheduler) }
        #expect(ran.withLock { $0 } == ["end-1", "end"])
        #expect(scheduler.clock == TestScheduler.endOfTime)
        #expect(scheduler.pendingCount == 1)
        // Advancing past the end stops the clock there; the entry after it
        // still never runs.
        if async { await scheduler.advance(to: end + .seconds(1)) } else { advanceSynchronously(scheduler, to: end + .seconds(1)) }
        #expect(scheduler.clock == TestScheduler.endOfTime)
        #expect(ran.withLock { $0 } == ["end-1", "end"])
        for entry in [before, at, after] { entry.dispose() }
        #expect(scheduler.pendingCount == 0)
    }

    /// Sleeps on the virtual clock follow the same rule: one due at the end
    /// wakes, one due a frame later never does (the task stays asleep until
    /// cancelled).
    @Test func sleepsAtTheEndPlusOrMinusOneFrame() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let end = scheduler.instant(for: TestScheduler.endOfTime)
        let woke = Locked<[String]>([])
        func sleeper(until deadline: SchedulerInstant, _ label: String) -> Task<Void, Never> {
            Task {
                do {
                    try await clock.sleep(until: deadline)
                    woke.withLock { $0.append(label) }
                } catch {
                    woke.withLock { $0.append("\(label) cancelled") }
                }
            }
        }
        let tasks = [
            sleeper(until: end - scheduler.frame, "end-1"), sleeper(until: end, "end"),
            sleeper(until: end + scheduler.frame, "end+1"),
        ]
        let forever = Task {
            do {
                try await clock.sleep(for: .seconds(Int64.max))
                woke.withLock { $0.append("Int64.max s") }
            } catch {
                woke.withLock { $0.append("Int64.max s cancelled") }
            }
        }
        await scheduler.run()
        #expect(woke.withLock { $0 } == ["end-1", "end"])
        #expect(scheduler.clock == TestScheduler.endOfTime)
        #expect(scheduler.pendingCount == 2)
        tasks[2].cancel()
        forever.cancel()
        for task in tasks { await task.value }
        await forever.value
        #expect(woke.withLock { $0 } == ["end-1", "end", "end+1 cancelled", "Int64.max s cancelled"])
        #expect(scheduler.pendingCount == 0)
    }
}

/// The synchronous `run()`, from an async test.
private func runSynchronously(_ scheduler: TestScheduler) {
    scheduler.run()
}

/// The synchronous `advance(to:)`, from an async test.
private func advanceSynchronously(_ scheduler: TestScheduler, to instant: SchedulerInstant) {
    scheduler.advance(to: instant)
}
