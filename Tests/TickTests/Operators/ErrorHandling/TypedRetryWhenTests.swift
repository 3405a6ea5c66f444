import Testing
import Tick
import TickTesting

/// `retry(when:)` typed by error.
@Suite(.checksResourceLeaks) struct TypedRetryWhenTests {
    // MARK: retry(when:) typed by error

    enum Transient: Error, Equatable { case busy }

    @Test func typedRetryWhenLetsErrorsOfOtherTypesThrough() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(when: { (errors: Observable<Transient>) in errors }) }
        #expect(res.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func typedRetryWhenRetriesErrorsOfItsType() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Transient.busy)])
        let res = scheduler.start { xs.retry(when: { (errors: Observable<Transient>) in errors.take(1) }) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240)])
    }
}
