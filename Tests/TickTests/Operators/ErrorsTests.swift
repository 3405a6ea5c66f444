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
