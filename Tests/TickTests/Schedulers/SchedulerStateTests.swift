import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SchedulerStateTests {
    @Test func scheduleWithStateRunsNowAndScheduleRelativeLater() {
        let scheduler = TestScheduler()
        var runs: [String] = []
        scheduler.schedule("now") { state in
            runs.append("\(state)@\(scheduler.clock)")
            return Disposables.create()
        }
        scheduler.scheduleRelative("later", dueTime: scheduler.duration(10)) { state in
            runs.append("\(state)@\(scheduler.clock)")
            return Disposables.create()
        }
        scheduler.run()
        #expect(runs == ["now@0", "later@10"])
    }

    @Test func disposingCancelsTheActionOrDisposesWhatItReturned() {
        let scheduler = TestScheduler()
        var ran = false
        let cancelled = scheduler.scheduleRelative((), dueTime: scheduler.duration(10)) { _ in
            ran = true
            return Disposables.create()
        }
        cancelled.dispose()
        var returnedDisposed = false
        let afterRun = scheduler.schedule(()) { _ in Disposables.create { returnedDisposed = true } }
        scheduler.run()
        #expect(!ran)
        #expect(!returnedDisposed)
        afterRun.dispose()
        #expect(returnedDisposed)
    }

    @Test func schedulePeriodicPassesTheStateOn() {
        let scheduler = TestScheduler()
        var seen: [Int] = []
        let periodic = scheduler.schedulePeriodic(1, startAfter: scheduler.duration(5), period: scheduler.duration(10)) {
            seen.append($0)
            return $0 * 2
        }
        scheduler.advance(to: 30)
        periodic.dispose()
        #expect(seen == [1, 2, 4])
    }
}
