import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct RecordedConveniencesTests {
    @Test func eventsListsTheRecordedEventsItIsGiven() {
        let expected = Recorded.events(.next(210, 2), .next(220, 3), .completed(250))
        #expect(expected == [.next(210, 2), .next(220, 3), .completed(250)])
        #expect(Recorded.events([.next(210, "a")]) == [Recorded.next(210, "a")])
    }

    @Test func timelessEventsAreAtTimeZero() {
        let events: [Recorded<Event<Int>>] = [.next(1), .completed(), .error(TestError(1))]
        #expect(events.map(\.time) == [0, 0, 0])
        #expect(events.map(\.value) == [.next(1), .completed, .error(TestError(1))])
    }
}

@Suite(.checksResourceLeaks) struct EventAssertionsTests {
    @Test func equalEventArraysPass() {
        #expect(expectEvents([Event.next(1), .completed], [.next(1), .completed]))
        #expect(expectEvents([SingleEvent<Int>.success(1), .failure(TestError(2))], [.success(1), .failure(TestError(2))]))
        #expect(expectEvents([MaybeEvent<Int>.success(1), .completed, .error(TestError(3))],
                             [.success(1), .completed, .error(TestError(3))]))
        #expect(expectEvents([CompletableEvent.completed, .error(TestError(4))], [.completed, .error(TestError(4))]))
    }

    @Test func differingEventArraysFailListingEachIndex() {
        withKnownIssue {
            _ = expectEvents([SingleEvent<Int>.success(1)], [.success(2), .failure(TestError(1))])
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("[0] actual:   success(1)") && text.contains("[1] missing:  failure(TestError(1))")
        }
        withKnownIssue {
            _ = expectEvents([CompletableEvent.completed], [.error(TestError(2))])
        }
        withKnownIssue {
            _ = expectEvents([MaybeEvent.success(1)], [MaybeEvent<Int>.completed])
        }
        withKnownIssue {
            _ = expectEvents([Event.next(1)], [Event<Int>.completed])
        }
    }

    @Test func singleEventsCompareErrorsLikeEvents() {
        #expect(singleEventsAreEqual(SingleEvent<Int>.failure(TestError(1)), .failure(TestError(1))))
        #expect(!singleEventsAreEqual(SingleEvent<Int>.failure(TestError(1)), .failure(TestError(2))))
        #expect(!singleEventsAreEqual(SingleEvent<Int>.success(1), .failure(TestError(1))))
    }
}

@Suite(.checksResourceLeaks) struct TestableObservableClassTests {
    @Test func hotAndColdObservablesAreTestableObservables() {
        let scheduler = TestScheduler()
        let inner: TestableObservable<Int> = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let outer: TestableObservable<TestableObservable<Int>> = scheduler.createHotObservable([
            .next(210, inner), .completed(300),
        ])
        let res = scheduler.start { outer.merge() }
        #expect(res.events == [.next(220, 2), .completed(300)])
        #expect(outer.subscriptions == [Subscription(200, 300)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
        #expect(inner.recordedEvents == [.next(10, 2), .completed(20)])
    }
}
