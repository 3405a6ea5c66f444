import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SkipTakeElementTests {
    static let source: [Recorded<Event<Int>>] = [
        .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
    ]

    @Test func takeLast() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.takeLast(2) }.events == [.next(250, 3), .next(250, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        #expect(s2.start { ys.takeLast(2) }.events == [.error(220, TestError(1))])
        #expect(TestScheduler().start { Observable.of(1, 2).takeLast(0) }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable.of(1, 2).takeLast(5) }.events == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.never().takeLast(1) }.events.isEmpty)
    }

    @Test func takeWhileAndBehavior() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.take(while: { $0 < 3 }) }.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.take(while: { $0 < 3 }, behavior: .inclusive) }.events
            == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable(Self.source)
        #expect(s3.start { zs.takeWhile { x in if x == 2 { throw TestError(1) }; return true } }.events
            == [.next(210, 1), .error(220, TestError(1))])
        let s4 = TestScheduler()
        let ws = s4.createHotObservable(Self.source)
        #expect(s4.start { ws.take(until: { $0 == 2 }) }.events == [.next(210, 1), .completed(220)])
    }

    @Test func skipWhile() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 2), .completed(250)])
        #expect(scheduler.start { xs.skip(while: { $0 < 3 }) }.events == [.next(220, 5), .next(230, 2), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.skipWhile { _ in throw TestError(1) } }.events == [.error(210, TestError(1))])
        #expect(TestScheduler().start { Observable<Int>.never().skip(while: { _ in true }) }.events.isEmpty)
    }

    @Test func elementAtIndex() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.element(at: 2) }.events == [.next(230, 3), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.elementAt(10) }.events == [.error(250, TickError.argumentOutOfRange)])
        var negative: [Recorded<Event<Int>>] = []
        withKnownIssue { negative = TestScheduler().start { Observable.of(1).element(at: -1) }.events }
        #expect(negative == [.error(200, TickError.argumentOutOfRange)])
    }

    @Test func firstAndIgnoreElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.first() }.events == [.next(210, 1), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(TestScheduler().start { Observable<Int>.empty().first() }.events == [.next(200, nil), .completed(200)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.ignoreElements() }.events == [.completed(250)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        #expect(s3.start { zs.ignoreElements() }.events == [.error(220, TestError(1))])
    }
}
