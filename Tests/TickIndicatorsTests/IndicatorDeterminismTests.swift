import Testing
import Tick
import TickIndicators
import TickTesting

/// The indicator components on a `TestScheduler` are deterministic: the same
/// scripted scenario, run 100 times, records exactly the same timeline.
@Suite(.checksResourceLeaks) struct IndicatorDeterminismTests {
    /// Fixed pseudo-random numbers (a linear congruential generator), so the
    /// scenario is busy and irregular but identical on every run.
    struct Numbers {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Overlapping tracked sequences (some completing, some failing, one
    /// disposed early) with messages.
    static func activityTimeline() -> String {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator(defaultMessage: "Loading")
        let observer = scheduler.createObserver(ActivityIndicator.State.self)
        let recording = indicator.subscribe(observer)
        let bag = DisposeBag()
        var numbers = Numbers(state: 7)
        for job in 0..<30 {
            let start = numbers.next(400)
            let length = 1 + numbers.next(60)
            let events: [Recorded<Event<Int>>] =
                job % 5 == 4 ? [.next(1, job), .error(TestTime(length), TestError(job))] : [.next(1, job), .completed(TestTime(length))]
            let source = scheduler.createColdObservable(events)
            let message: String? = job % 3 == 0 ? nil : "job \(job)"
            scheduler.scheduleAt(TestTime(start)) {
                let subscription = source.trackActivity(in: indicator, message: message)
                    .subscribe(onNext: { _ in }, onError: { _ in })
                if job % 7 == 6 {
                    scheduler.scheduleAt(TestTime(start + length / 2)) { subscription.dispose() }
                } else {
                    subscription.disposed(by: bag)
                }
            }
        }
        scheduler.advance(to: 1000)
        recording.dispose()
        return "\(observer.events)|\(indicator.state)"
    }

    /// Requests and manual counts crossing the start and completion delays,
    /// including changes exactly at a deadline.
    static func networkTimeline() -> String {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(
            scheduler: scheduler, startDelay: .milliseconds(20), completionDelay: .milliseconds(10))
        var log: [String] = []
        manager.networkActivityIndicatorVisibilityChanged = { log.append("\($0)@\(scheduler.clock)") }
        let visibility = scheduler.createObserver(Bool.self)
        let subscription = manager.visibility.subscribe(visibility)
        var numbers = Numbers(state: 11)
        for request in 0..<40 {
            let start = numbers.next(600)
            let length = 1 + numbers.next(40)
            scheduler.scheduleAt(TestTime(start)) { manager.requestDidStart(requestID: request) }
            scheduler.scheduleAt(TestTime(start + length)) { manager.requestDidStop(requestID: request) }
        }
        for manual in 0..<10 {
            let start = manual * 60 + numbers.next(20)
            scheduler.scheduleAt(TestTime(start)) { manager.incrementActivityCount() }
            scheduler.scheduleAt(TestTime(start + 20)) { manager.decrementActivityCount() }
        }
        scheduler.advance(to: 1000)
        subscription.dispose()
        manager.networkActivityIndicatorVisibilityChanged = nil
        return "\(log)|\(visibility.events)|\(manager.phase)|\(manager.activityCount)"
    }

    /// Errors with and without reset times, resets, and trackError on failing sources.
    static func errorTimeline() -> String {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let observer = scheduler.createObserver(String.self)
        let subscription = tracker.map { $0.map { "\($0)" } ?? "nil" }.subscribe(observer)
        var numbers = Numbers(state: 3)
        let bag = DisposeBag()
        for step in 0..<40 {
            let at = numbers.next(800)
            let reset = numbers.next(4)
            scheduler.scheduleAt(TestTime(at)) {
                switch step % 4 {
                case 0: tracker.onNext(TestError(step), resetTime: reset == 0 ? nil : .milliseconds(reset * 15))
                case 1: tracker.reset()
                case 2:
                    Observable<Int>.error(TestError(step)).trackError(tracker, resetTime: .milliseconds(25))
                        .subscribe(onError: { _ in }).disposed(by: bag)
                default: tracker.onNext(nil)
                }
            }
        }
        scheduler.advance(to: 1000)
        subscription.dispose()
        return "\(observer.events)"
    }

    @Test func aHundredRunsRecordIdenticalTimelines() {
        let reference = [Self.activityTimeline(), Self.networkTimeline(), Self.errorTimeline()]
        #expect(reference.allSatisfy { $0.count > 100 })
        for run in 1..<100 {
            let again = [Self.activityTimeline(), Self.networkTimeline(), Self.errorTimeline()]
            guard again == reference else {
                Issue.record("run \(run) recorded a different timeline")
                return
            }
        }
    }
}
