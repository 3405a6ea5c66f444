import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct TestObservableTests {
    @Test func hotEventsHappenAtAbsoluteTimesAndOnlyAfterSubscription() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(150, "early"), .next(200, "at-subscribe"), .next(210, "b"), .completed(250),
        ])
        let observer = scheduler.start { xs }
        // The hot events were scheduled when `xs` was created, before `start`
        // scheduled its subscription at 200: same instant, earlier order, so the
        // event at 200 happens just before the subscription and is not seen.
        #expect(observer.events == [.next(210, "b"), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    // A hot observable whose recording is in time order schedules one action
    // per event that emits "the next event" (no closure context per event);
    // the two tests below pin the cases that must take the other path.

    @Test func aHotRecordingOutOfTimeOrderEmitsEachEventAtItsTime() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(300, "c"), .next(210, "a"), .next(250, "b"), .next(210, "a2"), .completed(400),
        ])
        let observer = scheduler.start { xs }
        #expect(observer.events == [.next(210, "a"), .next(210, "a2"), .next(250, "b"), .next(300, "c"), .completed(400)])
    }

    @Test func aHotEventAtTheCreationInstantIsNotMovedByTheProcessingDelay() {
        // A hot observable's events are scheduled at absolute times, as
        // RxTest's are (`scheduleAt`), and RxTest's processing delay moves
        // only relative work: the event at the creation instant runs at it,
        // before the one half a frame later. (Until 2026-11-26 Tick moved it
        // one frame on, past the later one; RxSwift's InfallibleCombineLatest
        // tests, ported, showed the difference.)
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        let half = TestTime(frames: 0, remainder: scheduler.frame / 2)
        let xs = scheduler.createHotObservable([.next(0, "at creation"), .next(half, "half a frame later")])
        let observer = scheduler.createObserver(String.self)
        let subscription = xs.subscribe(observer)
        scheduler.run()
        #expect(observer.events == [.next(0, "at creation"), .next(half, "half a frame later")])
        subscription.dispose()
    }

    @Test func aLongHotRecordingReachesEverySubscriberAtItsTimes() {
        let scheduler = TestScheduler()
        let events: [Recorded<Event<Int>>] = (0..<500).map { .next(TestTime(201 + $0 / 3), $0) } + [.completed(400)]
        let xs = scheduler.createHotObservable(events)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(first) }
        scheduler.scheduleAt(300) { _ = xs.subscribe(second) }
        scheduler.run()
        #expect(first.events == events)
        // Subscribed at 300, after the events scheduled for 300 (created earlier).
        #expect(second.events == events.filter { $0.time > 300 })
    }

    @Test func aHotObservableNobodyHoldsStillEmits() {
        let scheduler = TestScheduler()
        let observer = scheduler.start {
            scheduler.createHotObservable([.next(210, 1), .completed(220, Int.self)]).map { $0 + 1 }
        }
        #expect(observer.events == [.next(210, 2), .completed(220)])
    }

    @Test func coldEventsAreRelativeToEachSubscription() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30, Int.self)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(first) }
        scheduler.scheduleAt(205) { _ = xs.subscribe(second) }
        scheduler.run()
        #expect(first.events == [.next(110, 1), .next(120, 2), .completed(130)])
        #expect(second.events == [.next(215, 1), .next(225, 2), .completed(235)])
        #expect(xs.subscriptions == [Subscription(100), Subscription(205)])
    }

    // A cold subscription's actions each send "the next event" when the
    // recording is in time order (one object per subscription, no closure
    // context per event); the two tests below pin the cases that must take
    // the other path, one closure per event.

    @Test func aColdRecordingOutOfTimeOrderEmitsEachEventAtItsTime() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([
            .next(30, "c"), .next(10, "a"), .next(20, "b"), .next(10, "a2"), .completed(40),
        ])
        let observer = scheduler.createObserver(String.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(observer) }
        scheduler.run()
        #expect(observer.events == [.next(110, "a"), .next(110, "a2"), .next(120, "b"), .next(130, "c"), .completed(140)])
    }

    @Test func underProcessingDelayASubFrameColdTimeRunsBeforeTheShiftedOnes() {
        // RxTest's processing delay moves an event due at the subscription
        // to one frame later; an event half a frame after the subscription
        // is not moved, so it comes first although it is recorded second.
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        let half = TestTime(frames: 0, remainder: .microseconds(500))
        let xs = scheduler.createColdObservable([.next(0, "a"), .next(half, "b"), .completed(5)])
        let observer = scheduler.createObserver(String.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(observer) }
        scheduler.run()
        #expect(
            observer.events == [
                .next(TestTime(frames: 100, remainder: .microseconds(500)), "b"), .next(101, "a"), .completed(105),
            ])
    }

    @Test func startDefaultsAreRxTests() {
        let scheduler = TestScheduler()
        var createdAt: TestTime?
        let xs = scheduler.createColdObservable([.next(0, "x")])
        let observer = scheduler.start { () -> ColdObservable<String> in
            createdAt = scheduler.clock
            return xs
        }
        #expect(createdAt == 100)
        #expect(observer.events == [.next(200, "x")])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func disposalCancelsColdEventsAndIsLogged() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(50, 1), .next(900, 2)])
        let observer = scheduler.start(disposed: 500) { xs }
        #expect(observer.events == [.next(250, 1)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
        #expect(scheduler.pendingCount == 0)
    }

    /// A cold subscription reaches its scheduler through the scheduler's
    /// link, not a `weak` reference: it does not keep the scheduler alive,
    /// and once the scheduler is gone its events never come and disposing
    /// it logs and cancels nothing, lets go of the observer, and traps on
    /// nothing (the same as the `weak` reference it replaced).
    @Test func aColdSubscriptionThatOutlivesItsSchedulerIsInert() {
        final class Collector: ObserverType, @unchecked Sendable {
            var values: [String] = []
            func on(_ event: Event<String>) { if case .next(let value) = event { values.append(value) } }
        }
        weak var released: TestScheduler?
        weak var collector: Collector?
        let (source, subscription) = { () -> (ColdObservable<String>, any Disposable) in
            let scheduler = TestScheduler()
            released = scheduler
            let source = scheduler.cold("-a-b-|")
            let observer = Collector()
            collector = observer
            let subscription = source.subscribe(observer)
            scheduler.advance(to: 2)
            #expect(observer.values == ["a"])
            #expect(scheduler.pendingCount == 2)
            return (source, subscription)
        }()
        // The scheduler went away with the subscription's last two events
        // still queued: the queue held the subscription, not the scheduler.
        #expect(released == nil)
        #expect(collector?.values == ["a"])
        subscription.dispose()
        // Disposed: the observer is let go of.
        #expect(collector == nil)
        // The log still shows the subscription open: the scheduler that would
        // have said when it ended is gone.
        #expect(source.subscriptions == [Subscription(0)])
        // A new subscription to the orphaned observable does nothing.
        var late = 0
        source.subscribe(onNext: { _ in late += 1 }).dispose()
        #expect(late == 0 && source.subscriptions == [Subscription(0)])
    }

    @Test func hotRecordingIsReplayedVerbatimButOperatorsStopAtTheTerminal() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220), .next(230, 2), .error(240, TestError(1))])
        let raw = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(raw) }
        let mapped = scheduler.start { xs.map { $0 } }
        #expect(raw.events == [.next(210, 1), .completed(220), .next(230, 2), .error(240, TestError(1))])
        #expect(mapped.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200), Subscription(200, 220)])
    }

    @Test func recordedEventsCompareWithTheDocumentedErrorRule() {
        struct Plain: Error, CustomStringConvertible { var description: String }
        #expect(Recorded<Event<Int>>.error(10, TestError(1)) == .error(10, TestError(1)))
        #expect(Recorded<Event<Int>>.error(10, TestError(1)) != .error(10, TestError(2)))
        #expect(Recorded<Event<Int>>.error(10, TestError(1)) != .error(11, TestError(1)))
        #expect(errorsAreEqual(Plain(description: "x"), Plain(description: "x")))
        #expect(!errorsAreEqual(Plain(description: "x"), Plain(description: "y")))
        #expect(!errorsAreEqual(Plain(description: "TestError(1)"), TestError(1)), "different types never match")
        #expect(Recorded<Event<Int>>.next(1, 1) != .completed(1))
    }

    @Test func descriptionsReadWell() {
        #expect(Recorded<Event<String>>.next(210, "a").description == "next(a) @ 210")
        #expect(Subscription(200, 1000).description == "(200 : 1000)")
        #expect(Subscription(200).description == "(200 : never)")
        #expect(Duration.microseconds(10_200).exactDescription == "10.2ms")
        #expect(Duration.seconds(90).exactDescription == "90s")
        #expect(Duration.nanoseconds(1500).exactDescription == "1.5µs")
    }
}
