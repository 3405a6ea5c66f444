import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct AggregatingTests {
    @Test func reduceEmitsFinalStateOnCompletion() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        #expect(scheduler.start { xs.reduce(10, accumulator: +) }.events == [.next(250, 15), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 2), .completed(250)])
        #expect(s2.start { ys.reduce(1, accumulator: +, mapResult: { "=\($0)" }) }.events == [.next(250, "=3"), .completed(250)])
    }

    @Test func reduceErrorThrowsEmptyNeverDisposal() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError(1))])
        #expect(scheduler.start { xs.reduce(0, accumulator: +) }.events == [.error(220, TestError(1))])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        #expect(s2.start { ys.reduce(0) { _, _ in throw TestError(2) } }.events == [.error(210, TestError(2))])
        #expect(ys.subscriptions == [Subscription(200, 210)])
        #expect(TestScheduler().start { Observable<Int>.empty().reduce(7, accumulator: +) }.events == [.next(200, 7), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.never().reduce(7, accumulator: +) }.events.isEmpty)
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 2), .completed(250)])
        #expect(s3.start(disposed: 230) { zs.reduce(0, accumulator: +) }.events.isEmpty)
        #expect(zs.subscriptions == [Subscription(200, 230)])
    }

    @Test func toArrayCollects() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        #expect(scheduler.start { xs.toArray() }.events == [.next(250, [2, 3]), .completed(250)])
        #expect(TestScheduler().start { Observable<Int>.empty().toArray() }.events == [.next(200, []), .completed(200)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 2), .error(220, TestError(1))])
        #expect(s2.start { ys.toArray() }.events == [.error(220, TestError(1))])
    }

    @Test func materializeAndDematerialize() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError(1))])
        let res = scheduler.start { xs.materialize() }
        #expect(res.events == [.next(210, .next(2)), .next(220, .error(TestError(1))), .completed(220)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 2), .completed(250)])
        let roundTrip = s2.start { ys.materialize().dematerialize() }
        #expect(roundTrip.events == [.next(210, 2), .completed(250)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, Event<Int>.next(1)), .next(220, .error(TestError(2))), .next(230, .next(3))])
        #expect(s3.start { zs.dematerialize() }.events == [.next(210, 1), .error(220, TestError(2))])
        #expect(zs.subscriptions == [Subscription(200, 220)])
        #expect(TestScheduler().start { Observable<Int>.never().materialize() }.events.isEmpty)
    }
}
