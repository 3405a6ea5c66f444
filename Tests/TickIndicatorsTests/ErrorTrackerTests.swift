import Testing
import TickIndicators
import TickTesting

/// The tracker's values as names ("nil" or the error's description), with times.
func names(_ events: [Recorded<Event<(any Error)?>>]) -> [Recorded<Event<String>>] {
    events.map { recorded in
        switch recorded.value {
        case .next(let error): Recorded(time: recorded.time, value: .next(error.map { "\($0)" } ?? "nil"))
        case .error(let error): Recorded(time: recorded.time, value: .error(error))
        case .completed: Recorded(time: recorded.time, value: .completed)
        }
    }
}

@Suite(.checksResourceLeaks) struct ErrorTrackerTests {
    let e1 = NamedError("e1")
    let e2 = NamedError("e2")
    let e3 = NamedError("e3")

    /// Subscribes a recording observer at time 0 and returns it with its subscription.
    func record(_ tracker: ErrorTracker, _ scheduler: TestScheduler) -> (TestableObserver<(any Error)?>, any Disposable) {
        let observer = scheduler.createObserver((any Error)?.self)
        return (observer, tracker.subscribe(observer))
    }

    // MARK: The original's tests

    @Test func firstValueIsNil() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        #expect(names(observer.events) == [.next(0, "nil")])
        #expect(tracker.error == nil)
        subscription.dispose()
    }

    @Test func latestErrorWins() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        tracker.onNext(e1)
        tracker.onNext(e3)
        tracker.onNext(e2)
        let (observer, subscription) = record(tracker, scheduler)
        #expect(names(observer.events) == [.next(0, "e2")])
        #expect((tracker.error as? NamedError) == e2)
        subscription.dispose()
    }

    @Test func eventCountsAndNilAfterNilSuppressed() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        #expect(observer.events.count == 1)
        tracker.onNext(e1)
        #expect(observer.events.count == 2)
        tracker.onNext(nil)
        #expect(observer.events.count == 3)
        tracker.onNext(nil)
        tracker.onNext(nil)
        tracker.onNext(nil)
        #expect(observer.events.count == 3)
        tracker.onNext(e2)
        #expect(observer.events.count == 4)
        subscription.dispose()
    }

    @Test func resetTimeClearsAtExactlyTheResetTime() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        tracker.onNext(e1, resetTime: .seconds(2))
        scheduler.advance(to: 1999)
        #expect(tracker.error != nil)
        scheduler.advance(to: 2000)
        #expect(tracker.error == nil)
        #expect(names(observer.events) == [.next(0, "nil"), .next(0, "e1"), .next(2000, "nil")])
        subscription.dispose()
    }

    @Test func trackingAFailingSequence() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        let downstream = scheduler.createObserver(Int.self)
        _ = Observable<Int>.error(e1).trackError(tracker).subscribe(downstream)
        #expect(names(observer.events) == [.next(0, "nil"), .next(0, "e1")])
        #expect(downstream.events == [.error(0, e1)])
        subscription.dispose()
    }

    @Test func resetSignalClears() {
        let scheduler = TestScheduler()
        let signal = PublishSubject<Void>()
        let tracker = ErrorTracker(resetSignal: signal, scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        scheduler.scheduleAt(100) { tracker.onNext(self.e1, resetTime: .seconds(10)) }
        scheduler.scheduleAt(200) { signal.onNext(()) }
        scheduler.scheduleAt(300) { signal.onNext(()) }
        scheduler.advance(to: 20_000)
        // The signal also cancelled the pending reset: no second nil at 10 100.
        #expect(names(observer.events) == [.next(0, "nil"), .next(100, "e1"), .next(200, "nil")])
        subscription.dispose()
    }

    // MARK: Reset windows

    @Test func newErrorRestartsTheResetWindow() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        scheduler.scheduleAt(0) { tracker.update(with: self.e1, resetAfter: .milliseconds(500)) }
        scheduler.scheduleAt(400) { tracker.update(with: self.e2, resetAfter: .milliseconds(500)) }
        scheduler.advance(to: 2000)
        #expect(names(observer.events) == [.next(0, "nil"), .next(0, "e1"), .next(400, "e2"), .next(900, "nil")])
        subscription.dispose()
    }

    @Test func newErrorWithoutResetTimeCancelsThePendingReset() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        scheduler.scheduleAt(0) { tracker.update(with: self.e1, resetAfter: .milliseconds(500)) }
        scheduler.scheduleAt(400) { tracker.update(with: self.e2) }
        scheduler.advance(to: 2000)
        #expect(names(observer.events) == [.next(0, "nil"), .next(0, "e1"), .next(400, "e2")])
        #expect(scheduler.pendingCount == 0)
        subscription.dispose()
    }

    @Test func identicalErrorsAreNotDeduplicated() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        tracker.onNext(e1)
        tracker.onNext(e1)
        #expect(names(observer.events) == [.next(0, "nil"), .next(0, "e1"), .next(0, "e1")])
        subscription.dispose()
    }

    /// A new error at the reset instant (and one frame either side). `newFirst`
    /// makes it run before the reset timer at the same instant; the outcome
    /// must not depend on it: the reset comes first.
    @Test(arguments: [(999, false), (1000, false), (1000, true), (1001, true)])
    func newErrorAtTheResetInstant(at time: Int, newFirst: Bool) {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        if newFirst {
            scheduler.scheduleAt(TestTime(time)) { tracker.update(with: self.e2) }
            scheduler.scheduleAt(0) { tracker.update(with: self.e1, resetAfter: .seconds(1)) }
        } else {
            scheduler.scheduleAt(0) {
                tracker.update(with: self.e1, resetAfter: .seconds(1))
                scheduler.schedule(after: .milliseconds(time)) { tracker.update(with: self.e2) }
            }
        }
        scheduler.advance(to: 3000)
        let expected: [Recorded<Event<String>>] =
            time < 1000
            ? [.next(0, "nil"), .next(0, "e1"), .next(TestTime(time), "e2")]
            : [.next(0, "nil"), .next(0, "e1"), .next(1000, "nil"), .next(TestTime(time), "e2")]
        #expect(names(observer.events) == expected)
        subscription.dispose()
    }

    @Test func zeroResetTimeClearsAtTheSameInstant() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        scheduler.scheduleAt(10) { tracker.update(with: self.e1, resetAfter: .zero) }
        scheduler.advance(to: 20)
        #expect(names(observer.events) == [.next(0, "nil"), .next(10, "e1"), .next(10, "nil")])
        subscription.dispose()
    }

    @Test func negativeResetTimeIsReportedAndTreatedAsZero() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let reports = misuseReports { tracker.update(with: e1, resetAfter: .milliseconds(-1)) }
        scheduler.advance(to: 0)
        #expect(tracker.error == nil)
        #expect(reports.count == 1)
    }

    @Test func deinitCancelsThePendingReset() {
        let scheduler = TestScheduler()
        var tracker: ErrorTracker? = ErrorTracker(scheduler: scheduler)
        tracker?.update(with: e1, resetAfter: .seconds(5))
        #expect(scheduler.pendingCount == 1)
        tracker = nil
        #expect(scheduler.pendingCount == 0)
        // Nothing is left to run: the clock stays where it was.
        scheduler.run()
        #expect(scheduler.clock == 0)
    }

    @Test func anObserverMayPushWhileBeingNotifiedAndOrderIsKept() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let first = scheduler.createObserver((any Error)?.self)
        let subscription1 = tracker.subscribe(onNext: { error in
            first.on(.next(error))
            // Escalate: every e1 is replaced by e2 at once.
            if (error as? NamedError) == self.e1 { tracker.update(with: self.e2) }
        })
        let (second, subscription2) = record(tracker, scheduler)
        tracker.update(with: e1)
        // Both observers see e1 before e2, although e2 was pushed while e1 was being delivered.
        #expect(names(first.events) == [.next(0, "nil"), .next(0, "e1"), .next(0, "e2")])
        #expect(names(second.events) == [.next(0, "nil"), .next(0, "e1"), .next(0, "e2")])
        subscription1.dispose()
        subscription2.dispose()
    }

    // MARK: trackError

    @Test func trackErrorElementsResetAndErrorsArePushedAndForwarded() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let (observer, subscription) = record(tracker, scheduler)
        let failing = scheduler.createColdObservable([.next(100, 1), .error(300, e1, Int.self)])
        let healthy = scheduler.createColdObservable([.next(400, 7), .completed(500, Int.self)])
        let failed = scheduler.start(created: 0, subscribed: 0, disposed: 5000) {
            failing.trackError(tracker, resetTime: .seconds(1))
        }
        #expect(failed.events == [.next(100, 1), .error(300, e1)])
        #expect(names(observer.events) == [.next(0, "nil"), .next(300, "e1"), .next(1300, "nil")])

        tracker.update(with: e2, resetAfter: .seconds(10))
        let other = scheduler.createObserver(Int.self)
        _ = healthy.trackError(tracker).subscribe(other)  // subscribed at 5000
        scheduler.advance(to: 20_000)
        #expect(other.events == [.next(5400, 7), .completed(5500)])
        // An element of another sequence resets the tracker (and cancels its timer).
        #expect(names(observer.events).suffix(2) == [.next(5000, "e2"), .next(5400, "nil")])
        subscription.dispose()
    }

    @Test func trackErrorDisposedMidwayPushesNothing() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let source = scheduler.createColdObservable([.error(500, e1, Int.self)])
        let observer = scheduler.start(created: 0, subscribed: 100, disposed: 300) { source.trackError(tracker) }
        scheduler.advance(to: 1000)
        #expect(observer.events == [])
        #expect(source.subscriptions == [Subscription(100, 300)])
        #expect(tracker.error == nil)
    }

    // MARK: Combining trackers

    @Test func newSubscriberGetsTheCurrentValue() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        tracker.update(with: e3)
        let values = Locked<[String]>([])
        let subscription = tracker.map { $0.map { "\($0)" } ?? "nil" }.subscribe(onNext: { name in
            values.withLock { $0.append(name) }
        })
        tracker.reset()
        #expect(values.current == ["e3", "nil"])
        subscription.dispose()
    }
}

/// Issue 16, items 1 and 2: reset times too long for the clock never trap.
@Suite(.checksResourceLeaks) struct ErrorTrackerTimeRangeTests {
    @Test func resetTimesPastTheEndOfTimeNeverReset() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let observer = scheduler.createObserver((any Error)?.self)
        let subscription = tracker.subscribe(observer)
        tracker.update(with: NamedError("long"), resetAfter: .seconds(Int64.max))
        scheduler.run()
        tracker.update(with: NamedError("longer"), resetAfter: Duration(totalAttoseconds: .max))
        scheduler.run()
        #expect(names(observer.events) == [.next(0, "nil"), .next(0, "long"), .next(0, "longer")])
        tracker.reset()
        subscription.dispose()
    }
}
