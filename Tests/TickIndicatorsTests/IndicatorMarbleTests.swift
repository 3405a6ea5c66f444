import Testing
import Tick
import TickIndicators
import TickTesting

/// The indicator rules as marble diagrams, where a timeline reads better than a
/// list of events. One frame is 100 ms here, so the diagrams stay short.
@Suite(.checksResourceLeaks) struct IndicatorMarbleTests {
    @Test func anErrorClearsItselfAfterItsResetTime() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let tracker = ErrorTracker(scheduler: scheduler)
        // Each element resets the tracker; the error is pushed with a 300 ms
        // reset time (3 frames) and still reaches downstream.
        let source = scheduler.hot("-a--#", error: TestError(1))
        let shown = tracker.map { $0 == nil ? "n" : "E" }
        scheduler.expect(shown).toBe("n---E--n")
        scheduler.expect(source.trackError(tracker, resetTime: .milliseconds(300)), subscription: "^------!")
            .toBe("-a--#", error: TestError(1))
        scheduler.flush()
    }

    @Test func theActivityIndicatorShowsWhileTrackedWorkRuns() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let indicator = ActivityIndicator()
        let work = scheduler.cold("---x|").trackActivity(in: indicator, message: "Saving")
        let loading = indicator.map { $0.loading ? "L" : "i" }
        scheduler.expect(loading).toBe("i-L---i")
        scheduler.expect(work, subscription: "--^").toBe("-----x|")
        scheduler.flush()
    }

    @Test func theNetworkIndicatorSkipsShortRequestsAndBridgesGaps() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)
        // Start delay 1 s (10 frames), completion delay 0.2 s (2 frames).
        // The short request (0-300 ms) alone would never show; the long one
        // (500-2200 ms) is running when the start delay ends at 1000 ms; the
        // next one starts at 2300 ms, inside the completion delay, so the
        // indicator stays up until 200 ms after it ends at 2700 ms.
        let short = scheduler.cold("---|").trackActivity(in: manager)
        let long = scheduler.cold("-----------------|").trackActivity(in: manager)
        let next = scheduler.cold("----|").trackActivity(in: manager)
        let visible = manager.visibility.map { $0 ? "V" : "h" }
        scheduler.expect(visible).toBe("h---------V------------------h")
        scheduler.expect(short).toBe("---|")
        scheduler.expect(long, subscription: "-----^").toBe("----------------------|")
        scheduler.expect(next, subscription: "-----------------------^").toBe("---------------------------|")
        scheduler.flush()
    }
}
