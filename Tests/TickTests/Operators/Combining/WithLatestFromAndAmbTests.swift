import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct WithLatestFromAndAmbTests {
    // MARK: withLatestFrom

    @Test func withLatestFromCombinesWithLatestOfSecond() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(245)])
        #expect(scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }.events == [.next(230, "2a"), .next(250, "3b"), .completed(300)])
        #expect(ys.subscriptions == [Subscription(200, 245)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func withLatestFromErrorsAndDisposal() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let ys = scheduler.createHotObservable([.next(205, "a"), .error(220, TestError(1), String.self)])
        #expect(scheduler.start { xs.withLatestFrom(ys) }.events == [.next(210, "a"), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        let s2 = TestScheduler()
        let a = s2.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = s2.createHotObservable([.next(205, 10)])
        #expect(s2.start(disposed: 220) { a.withLatestFrom(b) { $0 + $1 } }.events == [.next(210, 11)])
        #expect(b.subscriptions == [Subscription(200, 220)])
        let thrown = TestScheduler().start { Observable.just(1).withLatestFrom(Observable.just(2)) { _, _ -> Int in throw TestError(2) } }
        #expect(thrown.events == [.error(200, TestError(2))])
        let behavior = BehaviorSubject(value: 5)
        #expect(TestScheduler().start { Observable.just(1).withLatestFrom(behavior) }.events == [.next(200, 5), .completed(200)])
    }

    // MARK: amb

    @Test func ambMirrorsFirstToEmit() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let ys = scheduler.createHotObservable([.next(210, 2), .next(230, 3), .completed(240)])
        #expect(scheduler.start { xs.amb(ys) }.events == [.next(210, 2), .next(230, 3), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(ys.subscriptions == [Subscription(200, 240)])
    }

    @Test func ambTerminalWinsAndNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.error(215, TestError(1), Int.self)])
        let ys = scheduler.createHotObservable([.next(220, 2)])
        #expect(scheduler.start { Observable.amb([xs.asObservable(), ys.asObservable()]) }.events == [.error(215, TestError(1))])
        #expect(ys.subscriptions == [Subscription(200, 215)])
        #expect(TestScheduler().start { Observable<Int>.amb([]) }.events.isEmpty)
        let s2 = TestScheduler()
        let a = s2.createHotObservable([.next(220, 1)])
        #expect(s2.start(disposed: 210) { a.amb(Observable<Int>.never()) }.events.isEmpty)
        #expect(a.subscriptions == [Subscription(200, 210)])
    }
}
