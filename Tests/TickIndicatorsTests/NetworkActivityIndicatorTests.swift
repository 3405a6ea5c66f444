import Foundation
import Testing
@testable import TickIndicators
import TickTesting

/// The manager's state machine tick by tick (1 frame = 1 ms).
@Suite(.checksResourceLeaks) struct NetworkActivityIndicatorTests {
    typealias Manager = NetworkActivityIndicatorManager

    func make(_ scheduler: TestScheduler, start: Int = 1000, completion: Int = 200) -> Manager {
        Manager(scheduler: scheduler, startDelay: .milliseconds(start), completionDelay: .milliseconds(completion))
    }

    // MARK: The eight upstream scenarios (seconds in the original, ms here)

    @Test func upstream1_startAndStop() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r1") }
        scheduler.scheduleAt(100) { manager.requestDidStop(requestID: "r1") }
        scheduler.advance(to: 1000)
        #expect(log.current == [VisibilityChange(0, true), VisibilityChange(100, false)])
    }

    @Test func upstream2_overlappingRequests() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r1") }
        scheduler.scheduleAt(50) { manager.requestDidStart(requestID: "r2") }
        scheduler.scheduleAt(100) { manager.requestDidStop(requestID: "r1") }
        scheduler.scheduleAt(150) { manager.requestDidStop(requestID: "r2") }
        scheduler.advance(to: 1000)
        #expect(log.current == [VisibilityChange(0, true), VisibilityChange(150, false)])
    }

    @Test func upstream3_shorterThanStartDelayNeverShows() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 125)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r1") }
        scheduler.scheduleAt(50) { manager.requestDidStop(requestID: "r1") }
        scheduler.advance(to: 124)
        #expect(manager.phase == .delayingStart)
        scheduler.advance(to: 250)
        #expect(log.current == [])
        #expect(manager.phase == .notActive)
        #expect(!manager.isNetworkActivityIndicatorVisible)
    }

    @Test func upstream4_requestDuringCompletionDelayKeepsItVisible() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 200)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r1") }
        scheduler.scheduleAt(100) { manager.requestDidStop(requestID: "r1") }
        scheduler.scheduleAt(200) { manager.requestDidStart(requestID: "r2") }
        scheduler.scheduleAt(300) { manager.requestDidStop(requestID: "r2") }
        scheduler.advance(to: 250)
        #expect(manager.phase == .active)
        scheduler.advance(to: 499)
        #expect(manager.isNetworkActivityIndicatorVisible)
        scheduler.advance(to: 1000)
        #expect(log.current == [VisibilityChange(0, true), VisibilityChange(500, false)])
    }

    @Test func upstream5_disabledNeverShows() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        manager.isEnabled = false
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r1") }
        scheduler.scheduleAt(50) { #expect(manager.activityCount == 1) }
        scheduler.scheduleAt(100) { manager.requestDidStop(requestID: "r1") }
        scheduler.advance(to: 200)
        #expect(log.current == [])
        #expect(manager.activityCount == 0)
    }

    @Test func upstream6_countNeverGoesBelowZero() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.incrementActivityCount() }
        for time: TestTime in [100, 150, 200] {
            scheduler.scheduleAt(time) { manager.decrementActivityCount() }
        }
        // Had the stray decrements counted, this increment would leave the count at -1.
        scheduler.scheduleAt(300) { manager.incrementActivityCount() }
        scheduler.scheduleAt(400) { manager.decrementActivityCount() }
        scheduler.advance(to: 1000)
        #expect(log.current == [
            VisibilityChange(0, true), VisibilityChange(100, false),
            VisibilityChange(300, true), VisibilityChange(400, false),
        ])
        #expect(manager.activityCount == 0)
    }

    @Test func upstream7_duplicateStartsAreNoOps() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        let log = manager.recordChanges(on: scheduler)
        for time: TestTime in [0, 100, 150] {
            scheduler.scheduleAt(time) { manager.requestDidStart(requestID: "r1") }
        }
        scheduler.scheduleAt(160) { #expect(manager.activityCount == 1) }
        scheduler.scheduleAt(200) { manager.requestDidStop(requestID: "r1") }
        scheduler.advance(to: 1000)
        #expect(log.current == [VisibilityChange(0, true), VisibilityChange(200, false)])
    }

    @Test func upstream8_duplicateStopsAreNoOps() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r1") }
        for time: TestTime in [100, 150, 200] {
            scheduler.scheduleAt(time) { manager.requestDidStop(requestID: "r1") }
        }
        scheduler.advance(to: 1000)
        #expect(log.current == [VisibilityChange(0, true), VisibilityChange(100, false)])
        #expect(manager.activityCount == 0)
    }

    // MARK: The state machine with the default delays

    @Test func defaultsAreTheOriginals() {
        let manager = Manager(scheduler: TestScheduler())
        #expect(manager.startDelay == .seconds(1))
        #expect(manager.completionDelay == .milliseconds(200))
        #expect(manager.isEnabled)
        #expect(!manager.isNetworkActivityIndicatorVisible)
        #expect(manager.phase == .notActive)
    }

    @Test func showsAtStartDelayAndHidesAfterCompletionDelay() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: 1) }
        scheduler.scheduleAt(1500) { manager.requestDidStop(requestID: 1) }
        scheduler.advance(to: 999)
        #expect(!manager.isNetworkActivityIndicatorVisible)
        #expect(manager.phase == .delayingStart)
        scheduler.advance(to: 1000)
        #expect(manager.isNetworkActivityIndicatorVisible)
        #expect(manager.phase == .active)
        scheduler.advance(to: 1699)
        #expect(manager.phase == .delayingCompletion)
        #expect(manager.isNetworkActivityIndicatorVisible)
        scheduler.advance(to: 1700)
        #expect(!manager.isNetworkActivityIndicatorVisible)
        #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(1700, false)])
    }

    @Test func stopAndRestartInsideStartDelayShowsAtTheOriginalDeadline() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "a") }
        scheduler.scheduleAt(300) { manager.requestDidStop(requestID: "a") }
        scheduler.scheduleAt(600) { manager.requestDidStart(requestID: "b") }
        scheduler.scheduleAt(2000) { manager.requestDidStop(requestID: "b") }
        scheduler.advance(to: 3000)
        #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(2200, false)])
    }

    @Test func newRequestDuringCompletionDelayHasNoFlickerAndNoCallback() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "a") }
        scheduler.scheduleAt(1500) { manager.requestDidStop(requestID: "a") }
        scheduler.scheduleAt(1650) { manager.requestDidStart(requestID: "b") }
        scheduler.scheduleAt(2000) { manager.requestDidStop(requestID: "b") }
        scheduler.advance(to: 1650)
        #expect(manager.phase == .active)
        scheduler.advance(to: 3000)
        #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(2200, false)])
    }

    // MARK: Exact deadlines (deadline before input at the same instant)

    /// A stop at start + startDelay (and one frame either side). `stopFirst`
    /// makes the stop run before the start timer at the same instant (it was
    /// scheduled earlier); otherwise after it. The outcome must not depend on it.
    @Test(arguments: [(999, false), (1000, false), (1000, true), (1001, false), (1001, true)])
    func stopAtTheStartDeadline(stopAt: Int, stopFirst: Bool) {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r") }
        if stopFirst {
            scheduler.scheduleAt(TestTime(stopAt)) { manager.requestDidStop(requestID: "r") }
        } else {
            // Scheduled after the start timer (which is created at 0).
            scheduler.scheduleAt(1) {
                scheduler.schedule(after: .milliseconds(stopAt - 1)) { manager.requestDidStop(requestID: "r") }
            }
        }
        scheduler.advance(to: 3000)
        if stopAt < 1000 {
            #expect(log.current == [])
        } else {
            #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(TestTime(stopAt + 200), false)])
        }
    }

    /// A new request at the completion deadline (and one frame either side).
    @Test(arguments: [(1699, false), (1700, false), (1700, true), (1701, true)])
    func startAtTheCompletionDeadline(startAt: Int, startFirst: Bool) {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "a") }
        if startFirst {
            scheduler.scheduleAt(TestTime(startAt)) { manager.requestDidStart(requestID: "b") }
            scheduler.scheduleAt(1500) { manager.requestDidStop(requestID: "a") }
        } else {
            // The completion timer is created at 1500, before this start is scheduled.
            scheduler.scheduleAt(1500) {
                manager.requestDidStop(requestID: "a")
                scheduler.schedule(after: .milliseconds(startAt - 1500)) { manager.requestDidStart(requestID: "b") }
            }
        }
        scheduler.scheduleAt(4000) { manager.requestDidStop(requestID: "b") }
        scheduler.advance(to: 5000)
        if startAt < 1700 {
            #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(4200, false)])
        } else {
            #expect(log.current == [
                VisibilityChange(1000, true), VisibilityChange(1700, false),
                VisibilityChange(TestTime(startAt + 1000), true), VisibilityChange(4200, false),
            ])
        }
    }

    @Test func zeroDelaysStartAndStopAtTheSameInstantShowAndHideThen() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(10) {
            manager.requestDidStart(requestID: "r")
            manager.requestDidStop(requestID: "r")
        }
        scheduler.advance(to: 100)
        #expect(log.current == [VisibilityChange(10, true), VisibilityChange(10, false)])
        #expect(!manager.isNetworkActivityIndicatorVisible)
    }

    // MARK: isEnabled

    @Test func disablingDuringStartDelayNeverShows() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r") }
        scheduler.scheduleAt(500) { manager.isEnabled = false }
        scheduler.advance(to: 3000)
        #expect(log.current == [])
        #expect(manager.phase == .notActive)
        #expect(manager.activityCount == 1)
        manager.requestDidStop(requestID: "r")
    }

    @Test func disablingWhileVisibleHidesAtOnce() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r") }
        scheduler.scheduleAt(1200) { manager.isEnabled = false }
        scheduler.scheduleAt(1500) { manager.requestDidStop(requestID: "r") }
        scheduler.advance(to: 3000)
        #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(1200, false)])
    }

    @Test func reenablingWithActivityStartsAFreshStartDelay() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        manager.isEnabled = false
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r") }
        scheduler.scheduleAt(400) { manager.isEnabled = true }
        scheduler.scheduleAt(2000) { manager.requestDidStop(requestID: "r") }
        scheduler.advance(to: 1399)
        #expect(log.current == [])
        scheduler.advance(to: 3000)
        #expect(log.current == [VisibilityChange(1400, true), VisibilityChange(2200, false)])
    }

    @Test func reenablingWithoutActivityDoesNothing() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.isEnabled = false }
        scheduler.scheduleAt(10) { manager.isEnabled = true }
        scheduler.advance(to: 3000)
        #expect(log.current == [])
        #expect(manager.phase == .notActive)
    }

    // MARK: Delays

    @Test func delaysAreReadWhenTheyBegin() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        scheduler.scheduleAt(0) { manager.requestDidStart(requestID: "r") }
        // Changing the start delay during the start delay does not move the deadline.
        scheduler.scheduleAt(100) {
            manager.startDelay = .milliseconds(50)
            manager.completionDelay = .milliseconds(30)
        }
        scheduler.scheduleAt(1500) { manager.requestDidStop(requestID: "r") }
        scheduler.scheduleAt(2000) { manager.requestDidStart(requestID: "s") }
        scheduler.scheduleAt(2100) { manager.requestDidStop(requestID: "s") }
        scheduler.advance(to: 3000)
        #expect(log.current == [
            VisibilityChange(1000, true), VisibilityChange(1530, false),
            VisibilityChange(2050, true), VisibilityChange(2130, false),
        ])
    }

    @Test func negativeDelaysAreReportedAndBecomeZero() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let reports = misuseReports { manager.startDelay = .milliseconds(-5) }
        #expect(manager.startDelay == .zero)
        #expect(reports.count == 1)
        #expect(reports.first?.contains("startDelay") == true)
    }

    // MARK: Observable surface

    @Test func visibilityObservableEmitsCurrentValueThenRealChanges() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 100, completion: 100)
        let observer = scheduler.createObserver(Bool.self)
        let subscription = manager.visibility.subscribe(observer)
        scheduler.scheduleAt(0) { manager.incrementActivityCount() }
        scheduler.scheduleAt(50) { manager.incrementActivityCount() }
        scheduler.scheduleAt(300) { manager.decrementActivityCount() }
        scheduler.scheduleAt(350) { manager.decrementActivityCount() }
        scheduler.advance(to: 1000)
        subscription.dispose()
        #expect(observer.events == [.next(0, false), .next(100, true), .next(450, false)])
    }

    @Test func trackActivityCountsSubscriptions() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        let request = scheduler.createColdObservable([.next(1400, "data"), .completed(1500)])
        let observer = scheduler.start(created: 100, subscribed: 200, disposed: 5000) {
            request.trackActivity(in: manager)
        }
        #expect(observer.events == [.next(1600, "data"), .completed(1700)])
        #expect(log.current == [VisibilityChange(1200, true), VisibilityChange(1900, false)])
        #expect(manager.activityCount == 0)
    }

    @Test func trackActivityStopsWhenDisposedMidway() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let log = manager.recordChanges(on: scheduler)
        let request = scheduler.createColdObservable([.next(5000, 1)])
        let first = scheduler.start(created: 0, subscribed: 0, disposed: 1500) {
            request.trackActivity(in: manager)
        }
        #expect(first.events == [])
        #expect(request.subscriptions == [Subscription(0, 1500)])
        scheduler.advance(to: 3000)
        #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(1700, false)])
        #expect(manager.activityCount == 0)
    }

    @Test func trackedSubscriptionsDoNotCollideWithUserIDs() {
        let scheduler = TestScheduler()
        let manager = make(scheduler)
        let subject = PublishSubject<Int>()
        let a = subject.trackActivity(in: manager).subscribe()
        let b = subject.trackActivity(in: manager).subscribe()
        manager.requestDidStart(requestID: 1)
        #expect(manager.activityCount == 3)
        a.dispose()
        a.dispose()
        #expect(manager.activityCount == 2)
        b.dispose()
        manager.requestDidStop(requestID: 1)
        #expect(manager.activityCount == 0)
        scheduler.advance(to: 2000)
    }

    // MARK: Notifications

    final class FakeTask: NSObject {}

    @Test func notificationsDriveRequests() {
        let scheduler = TestScheduler()
        let manager = make(scheduler, start: 0, completion: 0)
        let log = manager.recordChanges(on: scheduler)
        let center = NotificationCenter()
        let names = Manager.NotificationNames(
            didResume: .init("test.resume"), didSuspend: .init("test.suspend"), didComplete: .init("test.complete"),
            requestKey: "task")
        let observation = manager.observeNotifications(from: center, names: names)
        let task1 = FakeTask()
        let task2 = FakeTask()
        scheduler.scheduleAt(0) { center.post(name: names.didResume, object: nil, userInfo: ["task": task1]) }
        scheduler.scheduleAt(10) { center.post(name: names.didResume, object: task2) }
        scheduler.scheduleAt(20) { #expect(manager.activityCount == 2) }
        scheduler.scheduleAt(30) { center.post(name: names.didSuspend, object: nil, userInfo: ["task": task1]) }
        scheduler.scheduleAt(40) { #expect(manager.activityCount == 1) }
        scheduler.scheduleAt(50) { center.post(name: names.didResume, object: nil) }  // no id: ignored
        scheduler.scheduleAt(60) { center.post(name: names.didComplete, object: task2) }
        scheduler.advance(to: 100)
        #expect(log.current == [VisibilityChange(0, true), VisibilityChange(60, false)])
        #expect(manager.activityCount == 0)
        observation.dispose()
        center.post(name: names.didResume, object: task1)
        #expect(manager.activityCount == 0)
    }

    @Test func requestIDsFromNotifications() {
        let object = FakeTask()
        let byKey = Notification(name: .init("x"), object: nil, userInfo: ["k": "request-7"])
        let byObject = Notification(name: .init("x"), object: object)
        let none = Notification(name: .init("x"))
        #expect(Manager.requestID(of: byKey, key: "k") == AnyHashable("request-7"))
        #expect(Manager.requestID(of: byObject, key: "k") == AnyHashable(object))
        #expect(Manager.requestID(of: none, key: "k") == nil)
    }

    @Test func alamofireNamesAreTheDefaults() {
        #expect(Manager.NotificationNames.alamofire.didResume.rawValue == "org.alamofire.notification.name.request.didResumeTask")
        #expect(Manager.NotificationNames.alamofire.requestKey == "org.alamofire.notification.key.request")
    }
}

@Suite(.checksResourceLeaks) struct NetworkActivityIndicatorLifetimeTests {
    @Test func deinitCancelsThePendingTimer() {
        let scheduler = TestScheduler()
        var manager: NetworkActivityIndicatorManager? = NetworkActivityIndicatorManager(scheduler: scheduler)
        manager?.incrementActivityCount()
        #expect(scheduler.pendingCount == 1)
        manager = nil
        #expect(scheduler.pendingCount == 0)
        // Nothing is left to run: the clock stays where it was.
        scheduler.run()
        #expect(scheduler.clock == 0)
    }

    @Test func visibilityChangesOnlyOnTheScheduler() {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)
        let log = manager.recordChanges(on: scheduler)
        manager.requestDidStart(requestID: "r")
        scheduler.advance(to: 1200)
        #expect(log.current == [VisibilityChange(1000, true)])
        // Called from the test, outside any scheduler action: the hide is
        // published by an action the manager schedules now, not inside this call.
        manager.isEnabled = false
        #expect(log.current == [VisibilityChange(1000, true)])
        #expect(manager.isNetworkActivityIndicatorVisible)
        #expect(manager.phase == .notActive)
        scheduler.advance(by: 0)
        #expect(log.current == [VisibilityChange(1000, true), VisibilityChange(1200, false)])
        #expect(!manager.isNetworkActivityIndicatorVisible)
        manager.requestDidStop(requestID: "r")
    }

    @Test func sharedManagerRunsOnTheMainQueue() {
        let shared = NetworkActivityIndicatorManager.shared
        #expect(shared.scheduler === MainScheduler.instance)
        #expect(shared.isEnabled)
        #expect(shared.startDelay == .seconds(1))
        #expect(shared.completionDelay == .milliseconds(200))
    }
}
