import Dispatch
import Testing
import Tick
@testable import TickTesting

/// A test that waits for what only virtual time can wake, while nothing
/// advances it, is told so (Docs/AsyncAwait.md, "A stuck test"): a report
/// at the scheduler's line after `AsyncDriver.stuckReportDelay` (1 s) of real
/// time, never a failure. Each test here is stuck on purpose, so it takes
/// about a second; the report itself ends the wait.
@Suite struct AsyncStuckTestReportTests {
    /// The most common mistake with a virtual clock: awaiting a task that
    /// sleeps on it, without advancing.
    @Test func awaitingASleepingTaskWithoutAnAdvanceIsReported() async throws {
        let scheduler = TestScheduler()  // the report points here
        let line = #line - 1
        let clock = scheduler.virtualClock
        let task = Task {
            try await clock.sleep(for: .seconds(1))
            return 42
        }
        let started = ContinuousClock.now
        // The body waits, as `try await task.value` would, until Tick
        // reports; the report resumes it.
        let report = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            scheduler.asyncDriver.onStuck = { continuation.resume(returning: $0) }
        }
        let waited = ContinuousClock.now - started
        #expect(report.contains("AsyncStuckTestReportTests.swift:\(line): warning: Tick: this test looks stuck."))
        #expect(report.contains("a sleep on virtualClock by a task the scheduler drives, due at 1000"))
        #expect(report.contains("call `await scheduler.advance(by:)`, `advance(to:)` or `run()`"))
        #expect(waited >= AsyncDriver.stuckReportDelay)
        // What the report says to do un-sticks it.
        await scheduler.advance(by: .seconds(1))
        #expect(try await task.value == 42)
    }

    /// The test body itself sleeping on the virtual clock, with nothing to
    /// advance it; here the report's handler advances (a second thread may
    /// advance while the test does not).
    @Test func aBodySleepingOnTheVirtualClockIsReported() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let report = Locked("")
        scheduler.asyncDriver.onStuck = { text in
            report.withLock { $0 = text }
            scheduler.advance(by: .milliseconds(500))
        }
        try await clock.sleep(for: .milliseconds(500))
        #expect(report.withLock { $0 }.contains("a sleep on virtualClock by the test body, due at 500"))
        #expect(scheduler.clock == 500)
    }
}
