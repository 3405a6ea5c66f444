import Testing
import Tick
import TickTesting

/// Regression tests for behaviours of issue 12 where Tick differed from
/// RxSwift by mistake. Each one failed before the fix; times in frames.
@Suite(.checksResourceLeaks) struct TimeParityRegressionTests {
    // MARK: 1. delay

    @Test func delayDisposesTheSourceWhenItCompletesNotWhenTheCompletionGoesOut() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(250, 2), .completed(300)])
        let res = scheduler.start { xs.delay(.milliseconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(350, 2), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    // MARK: 2. throttle

    @Test func throttleDisposesTheSourceWhenItCompletesWhileAnElementWaits() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(300)])
        let res = scheduler.start { xs.throttle(.milliseconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(410, 2), .completed(410)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    // MARK: 3. sample

    @Test func sampleEmitsTheDefaultValueWhenTheSamplerCompletes() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let sampler = scheduler.createHotObservable([.next(220, "tick"), .completed(300)])
        let res = scheduler.start { xs.sample(sampler, defaultValue: 0) }
        #expect(res.events == [.next(220, 1), .next(300, 0), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(sampler.subscriptions == [Subscription(200, 300)])
    }

    @Test func sampleDoesNotCompleteWhenTheSamplerCompletesBeforeTheSource() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(400)])
        let sampler = scheduler.createHotObservable([.next(220, "tick"), .completed(300)])
        let res = scheduler.start { xs.sample(sampler) }
        // 300: the sampler's completion is a last sample (2); the source has not completed, so
        // neither does the result (RxSwift's rule), and it never does after that.
        #expect(res.events == [.next(220, 1), .next(300, 2)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(sampler.subscriptions == [Subscription(200, 300)])
    }
}
