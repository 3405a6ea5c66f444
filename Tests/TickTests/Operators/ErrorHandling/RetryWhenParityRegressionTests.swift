import Testing
import Tick
import TickTesting

/// Regression tests for behaviours of issue 12 where Tick differed from
/// RxSwift by mistake. Each one failed before the fix; times in frames.
@Suite(.checksResourceLeaks) struct RetryWhenParityRegressionTests {
    // MARK: 5. retry(when:)

    @Test func retryWhenIgnoresTheTriggerWhileNoErrorIsPending() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(100)])
        let trigger = scheduler.createHotObservable([.next(215, "again")])
        let res = scheduler.start { xs.retry(when: { (_: Observable<any Error>) in trigger }) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func retryWhenCompletesWithTheSourceWhenTheTriggerCompletedFirst() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let trigger = scheduler.createHotObservable([.completed(215, String.self)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<any Error>) in trigger }) }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func retryWhenAnEarlierTriggerCompletionEndsTheResultAtTheNextError() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        // Two retries; the trigger completes right after the second, so the third error completes.
        let res = scheduler.start { xs.retry(when: { errors in errors.take(2) }) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }
}
