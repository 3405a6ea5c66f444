import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct ErrorsTests {
    @Test func catchAndReturnReplacesError() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(230, TestError(1))])
        #expect(scheduler.start { xs.catchAndReturn(99) }.events == [.next(210, 2), .next(230, 99), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func catchAndReturnPassesCompletionDisposalNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        #expect(scheduler.start { xs.catchAndReturn(99) }.events == [.next(210, 2), .completed(230)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 2), .error(230, TestError(1))])
        #expect(s2.start(disposed: 220) { ys.catchAndReturn(99) }.events == [.next(210, 2)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
        #expect(TestScheduler().start { Observable<Int>.never().catchAndReturn(1) }.events.isEmpty)
        #expect(TestScheduler().start { Observable<Int>.empty().catchAndReturn(1) }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable<Int>.error(TestError(2)).catchAndReturn(1) }.events
            == [.next(200, 1), .completed(200)])
    }
}

@Suite(.checksResourceLeaks) struct CatchRetryTests {
    @Test func catchSwitchesToFallback() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .error(230, TestError(1))])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        var caught: [TestError] = []
        let res = scheduler.start {
            xs.catch { error -> ColdObservable<Int> in
                if let error = error as? TestError { caught.append(error) }
                return ys
            }
        }
        #expect(res.events == [.next(210, 1), .next(240, 2), .completed(250)])
        #expect(caught == [TestError(1)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(ys.subscriptions == [Subscription(230, 250)])
    }

    @Test func catchHandlerThrowsFallbackFailsDisposal() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        #expect(scheduler.start { xs.catch { _ -> Observable<Int> in throw TestError(2) } }.events
            == [.next(210, 1), .error(230, TestError(2))])
        let s2 = TestScheduler()
        let a = s2.createHotObservable([.error(230, TestError(1), Int.self)])
        let b = s2.createColdObservable([.next(10, 2), .error(20, TestError(3))])
        #expect(s2.start { a.catch { _ in b } }.events == [.next(240, 2), .error(250, TestError(3))])
        let s3 = TestScheduler()
        let c = s3.createHotObservable([.error(230, TestError(1), Int.self)])
        let d = s3.createColdObservable([.next(10, 2), .next(30, 3)])
        #expect(s3.start(disposed: 250) { c.catch { _ in d } }.events == [.next(240, 2)])
        #expect(d.subscriptions == [Subscription(230, 250)])
        #expect(TestScheduler().start { Observable<Int>.never().catch { _ in Observable.just(1) } }.events.isEmpty)
        #expect(TestScheduler().start { Observable<Int>.empty().catch { _ in Observable.just(1) } }.events == [.completed(200)])
    }

    @Test func retryCountIsTotalAttempts() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(3) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
        let s2 = TestScheduler()
        let ys = s2.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        #expect(s2.start { ys.retry(1) }.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func retryForeverUntilDisposedOrCompleted() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        #expect(scheduler.start(disposed: 250) { xs.retry() }.events == [.next(210, 1), .next(230, 1)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 250)])
        let s2 = TestScheduler()
        let ys = s2.createColdObservable([.next(10, 1), .completed(20)])
        #expect(s2.start { ys.retry() }.events == [.next(210, 1), .completed(220)])
        #expect(TestScheduler().start { Observable<Int>.never().retry(2) }.events.isEmpty)
    }

    @Test func retryOfASynchronousFailureDoesNotRecurse() {
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            return .error(TestError(attempts))
        }
        let res = TestScheduler().start { source.retry(10_000) }
        #expect(res.events == [.error(200, TestError(10_000))])
        #expect(attempts == 10_000)
    }

    @Test func retryWhenDelaysAndGivesUp() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start {
            xs.retry(when: { errors in
                errors.scan(0) { count, _ in count + 1 }.flatMap { count -> Observable<Int> in
                    count < 3 ? Observable<Int>.timer(.milliseconds(5), scheduler: scheduler) : .error(TestError(9))
                }
            })
        }
        #expect(res.events == [.next(210, 1), .next(235, 1), .next(260, 1), .error(270, TestError(9))])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(225, 245), Subscription(250, 270)])
    }

    @Test func retryWhenTriggerCompletes() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let res = scheduler.start { xs.retry(when: { (errors: Observable<any Error>) in errors.take(while: { _ in false }) }) }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }
}
