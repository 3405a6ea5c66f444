import Testing
import Tick
import TickTesting

/// `schedule(after:)`'s due time, computed by the scheduler from its clock
/// (Docs/PerformanceHistory.md, branch queue10): a positive delay is due
/// `now + delay`, saturating past `Duration`'s range ("never"); only a zero
/// (or negative, reported) delay is work due now, which
/// `simulateProcessingDelay` moves one frame later.
@Suite(.checksResourceLeaks) struct TestSchedulerRelativeDueTests {
    @Test(arguments: [false, true])
    func aZeroDelayIsWorkDueNow(simulateProcessingDelay: Bool) {
        let scheduler = TestScheduler(initialClock: 7, simulateProcessingDelay: simulateProcessingDelay)
        var ranAt: [TestTime] = []
        scheduler.schedule(after: .zero) { ranAt.append(scheduler.clock) }
        scheduler.schedule(after: .milliseconds(1)) { ranAt.append(scheduler.clock) }
        scheduler.run()
        // With the processing delay the zero delay runs at 8, after the
        // one-frame delay scheduled after it (same instant, order of scheduling).
        #expect(ranAt == [simulateProcessingDelay ? 8 : 7, 8])
    }

    @Test func aNegativeDelayIsReportedAndRunsAsZeroWithTheProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 3, simulateProcessingDelay: true)
        var ranAt: TestTime?
        withKnownIssue {
            scheduler.schedule(after: .milliseconds(-2)) { ranAt = scheduler.clock }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("negative delay") }
        }
        scheduler.run()
        #expect(ranAt == 4)
    }

    @Test func aPositiveDelayIsDueAfterTheClockAndNotMovedByTheProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 10, simulateProcessingDelay: true)
        var ranAt: [TestTime] = []
        scheduler.scheduleAt(20) {
            scheduler.schedule(after: .milliseconds(5)) { ranAt.append(scheduler.clock) }
        }
        scheduler.schedule(after: .milliseconds(3)) { ranAt.append(scheduler.clock) }
        scheduler.run()
        #expect(ranAt == [13, 25])
    }

    @Test func aDelayPastTheRangeFromANegativeClockIsNever() {
        // From a negative clock `now + huge` stays inside Int128: due at
        // `huge - 5 frames`, past the end of time all the same.
        let huge = Duration(totalAttoseconds: .max)
        let scheduler = TestScheduler(initialClock: -5)
        var ran = false
        let entry = scheduler.schedule(after: huge) { ran = true }
        scheduler.advance(to: TestScheduler.endOfTime)
        #expect(!ran)
        #expect(scheduler.pendingCount == 1)
        entry.dispose()
        #expect(scheduler.pendingCount == 0)
    }
}
