import Testing
import Tick
@testable import TickTesting

/// After its first async `advance`/`run`, a nonisolated test body runs
/// inside the scheduler's driver, even when there was nothing to wait for: so
/// the tasks it starts next can never run beside it (Docs/AsyncAwait.md, "How
/// quiescence works"). A main-actor body comes back into the driver too, on
/// the main queue (see `AsyncMainActorBodyTests`).
@Suite(.checksResourceLeaks) struct AsyncEntranceTests {
    @Test func theTestBodyRunsInsideTheDriverAfterAnAdvanceWithNothingToWaitFor() async {
        let scheduler = TestScheduler()
        #expect(JobRouting.currentDriver == nil)
        await scheduler.advance(by: 0)
        // Before the entrance, an advance with nothing queued returned on
        // the body's own thread, outside the driver.
        #expect(JobRouting.currentDriver === scheduler.asyncDriver)
    }

    /// The order the AsyncAwait page shows: a cancelled sleeper resumes in
    /// the canceller's turn and runs once the canceller waits, never beside it.
    @Test func aCancelledSleeperRunsAfterTheCancellersTurn() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        let sleeper = Task {
            do {
                try await clock.sleep(for: .milliseconds(100))
                timeline.record("woke")
            } catch {
                timeline.record("cancelled")
            }
        }
        await scheduler.advance(to: 40)
        sleeper.cancel()
        timeline.record("after cancel")
        #expect(scheduler.pendingCount == 0)
        await sleeper.value
        #expect(timeline.entries == ["after cancel@40", "cancelled@40"])
    }
}
