import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct ZipTests {
    // MARK: zip

    @Test func zipPairsByIndex() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(215, "a"), .next(240, "b"), .completed(260)])
        let res = scheduler.start { Observable.zip(xs, ys) { "\($0)\($1)" } }
        // 3 (at 230) finds ys not completed, so zip waits; it completes when both have (RxSwift's rule).
        #expect(res.events == [.next(215, "1a"), .next(240, "2b"), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
    }

    @Test func zipCompletesOnlyWhenEverySourceHasCompleted() {
        let scheduler = TestScheduler()
        // e completes at 210 with nothing queued; o's 2 (at 215) can never be paired, yet zip
        // waits for o to complete too (RxSwift's ZipSink): completed at 220, o kept until then.
        let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { Observable.zip(e, o) { $0 + $1 } }
        #expect(res.events == [.completed(220)])
        #expect(e.subscriptions == [Subscription(200, 210)])
        #expect(o.subscriptions == [Subscription(200, 220)])
        // The same with elements paired first: xs completes with 1 and 2 paired, ys goes on.
        let s2 = TestScheduler()
        let xs = s2.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let ys = s2.createHotObservable([.next(240, "a"), .next(250, "b"), .next(260, "c"), .completed(270)])
        let pairs = s2.start { Observable.zip(xs, ys) { "\($0)\($1)" } }
        #expect(pairs.events == [.next(240, "1a"), .next(250, "2b"), .completed(270)])
        #expect(ys.subscriptions == [Subscription(200, 270)])
    }

    @Test func zipErrorDisposalNeverAndArities() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let ys = scheduler.createHotObservable([.next(215, 2), .next(230, 3)])
        #expect(scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }.events == [.next(215, 3), .error(220, TestError(1))])
        #expect(ys.subscriptions == [Subscription(200, 220)])
        let s2 = TestScheduler()
        let a = s2.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = s2.createHotObservable([.next(220, 10), .next(240, 20)])
        #expect(s2.start(disposed: 235) { Observable.zip(a, b) { $0 + $1 } }.events == [.next(220, 11)])
        #expect(a.subscriptions == [Subscription(200, 235)])
        let three = TestScheduler().start { Observable.zip(Observable.of(1, 2), Observable.of("a", "b"), Observable.of(true)).map { "\($0)\($1)\($2)" } }
        #expect(three.events == [.next(200, "1atrue"), .completed(200)])
        let four = TestScheduler().start { Observable.zip(Observable.just(1), Observable.just(2), Observable.just(3), Observable.just(4)).map { $0 + $1 + $2 + $3 } }
        #expect(four.events == [.next(200, 10), .completed(200)])
        #expect(TestScheduler().start { Observable.zip(Observable<Int>.never(), Observable.just(1)) { $0 + $1 } }.events.isEmpty)
    }

    @Test func zipOfACollectionAlsoCompletesWhenAnElementCannotBePairedAnyMore() {
        // RxSwift's collection zip (ZipCollectionTypeSink) keeps the "all others done" rule.
        let scheduler = TestScheduler()
        let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let b = scheduler.createHotObservable([.next(215, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { Observable.zip([a.asObservable(), b.asObservable()]) { $0.reduce(0, +) } }
        #expect(res.events == [.next(215, 3), .completed(230)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test func zipCollection() {
        let res = TestScheduler().start { Observable.zip([Observable.of(1, 2, 3), Observable.of(10, 20)]) }
        #expect(res.events == [.next(200, [1, 10]), .next(200, [2, 20]), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.zip([Observable<Int>]()) }.events == [.completed(200)])
        let summed = TestScheduler().start { Observable.zip([Observable.just(1), Observable.just(2)]) { $0.reduce(0, +) } }
        #expect(summed.events == [.next(200, 3), .completed(200)])
    }
}
