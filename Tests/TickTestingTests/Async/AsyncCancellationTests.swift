import Testing
import Tick
@testable import TickTesting

/// Cancelling the task that awaits an async `advance`/`run` stops it before
/// its next step: it returns at once, the clock at the last entry it ran
/// (Docs/AsyncAwait.md, "Cancelling an advance"). Swift Testing's
/// `.timeLimit` stops a test by cancelling its task, so it stops a runaway
/// advance the same way (AsyncTimeLimitTests, a minute in a child process);
/// these tests cancel at an exact virtual time instead.
@Suite(.checksResourceLeaks) struct AsyncCancellationTests {
    /// A sleep loop that would take 60,000 steps; the advancing task is
    /// cancelled by a driven task at 100 ms of virtual time.
    @Test func cancellingTheAdvancingTaskStopsARunawayAdvance() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let ticks = Locked(0)
        // The code under test: a loop that never ends on its own.
        let ticker = Task {
            while true {
                try await clock.sleep(for: .milliseconds(1))
                ticks.withLock { $0 += 1 }
            }
        }
        let advancing = Task { await scheduler.advance(by: .seconds(60)) }
        let canceller = Task {
            try await clock.sleep(for: .milliseconds(100))
            advancing.cancel()
        }
        await advancing.value
        // The canceller's sleep was scheduled before the ticker's last one,
        // so it ran first at 100: the advance stopped before the ticker's.
        #expect(scheduler.clock == 100)
        #expect(ticks.withLock { $0 } == 99)
        #expect(scheduler.pendingCount == 1)
        _ = await canceller.result
        ticker.cancel()
        _ = await ticker.result
        #expect(scheduler.pendingCount == 0)
    }

    /// An advance that starts in an already cancelled task runs nothing.
    @Test func anAdvanceInACancelledTaskRunsNothing() async {
        let scheduler = TestScheduler()
        let ran = Locked(false)
        let subscription = scheduler.schedule(after: .milliseconds(5)) { ran.withLock { $0 = true } }
        let advancing = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await scheduler.advance(by: .milliseconds(10))
        }
        await advancing.value
        #expect(!ran.withLock { $0 })
        #expect(scheduler.clock == 0)
        // The scheduler is not spoiled: a later advance runs as usual.
        await scheduler.advance(by: .milliseconds(10))
        #expect(ran.withLock { $0 })
        #expect(scheduler.clock == 10)
        subscription.dispose()
    }
}
