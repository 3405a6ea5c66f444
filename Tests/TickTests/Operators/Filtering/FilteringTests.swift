import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct FilteringTests {
    @Test func distinctUntilChangedPlain() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 2), .next(230, 3), .next(240, 2), .next(250, 2), .completed(260),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        #expect(res.events == [.next(210, 2), .next(230, 3), .next(240, 2), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func distinctUntilChangedByKey() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(210, "apple"), .next(220, "avocado"), .next(230, "banana"), .next(240, "blueberry"),
            .error(250, TestError(1)),
        ])
        let res = scheduler.start { xs.distinctUntilChanged { $0.first } }
        #expect(res.events == [.next(210, "apple"), .next(230, "banana"), .error(250, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func distinctUntilChangedByComparer() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 11), .next(230, 12), .next(240, 25)])
        // "Equal" when within 5 of the previous *received* element.
        let res = scheduler.start(disposed: 235) { xs.distinctUntilChanged { abs($0 - $1) <= 5 } }
        #expect(res.events == [.next(210, 1), .next(220, 11)])
        #expect(xs.subscriptions == [Subscription(200, 235)])
    }

    @Test func distinctUntilChangedComparerThrows() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.distinctUntilChanged { _, _ in throw TestError(7) } }
        #expect(res.events == [.next(210, 1), .error(220, TestError(7))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func distinctUntilChangedEmptyNever() {
        #expect(TestScheduler().start { Observable<Int>.empty().distinctUntilChanged() }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable<Int>.never().distinctUntilChanged() }.events.isEmpty)
    }

    @Test func skipCount() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
        #expect(scheduler.start { xs.skip(2) }.events == [.next(230, 3), .next(240, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(TestScheduler().start { Observable.of(1, 2).skip(0) }.events == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(TestScheduler().start { Observable.of(1, 2).skip(-3) }.events.count == 3)
        #expect(TestScheduler().start { Observable.of(1, 2).skip(5) }.events == [.completed(200)])
    }

    @Test func skipErrorDisposalNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        #expect(scheduler.start { xs.skip(1) }.events == [.next(220, 2), .error(230, TestError(1))])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        #expect(s2.start(disposed: 225) { ys.skip(1) }.events == [.next(220, 2)])
        #expect(ys.subscriptions == [Subscription(200, 225)])
        #expect(TestScheduler().start { Observable<Int>.never().skip(1) }.events.isEmpty)
    }
}
