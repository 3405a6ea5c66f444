import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct CombiningMoreTests {
    // MARK: concat

    @Test func concatSubscribesInTurn() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(30)])
        let res = scheduler.start { Observable.concat(a.asObservable(), b.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(250)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 250)])
    }

    @Test func concatErrorDisposalEmptyNever() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(30)])
        #expect(scheduler.start { a.concat(b) }.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(b.subscriptions.isEmpty)
        let s2 = TestScheduler()
        let c = s2.createColdObservable([.next(10, 1), .completed(20)])
        let d = s2.createColdObservable([.next(10, 2), .completed(30)])
        #expect(s2.start(disposed: 225) { c.concat(d) }.events == [.next(210, 1)])
        #expect(d.subscriptions == [Subscription(220, 225)])
        #expect(TestScheduler().start { Observable<Int>.concat([]) }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable.concat(Observable<Int>.never(), .just(1)) }.events.isEmpty)
        #expect(TestScheduler().start { Observable.of(Observable.of(1, 2), Observable.just(3)).concat() }.events
            == [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
    }

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

    @Test func zipCompletesWhenACompletedSourceIsExhausted() {
        let scheduler = TestScheduler()
        // xs completes at 230 with 1 and 2 unpaired: zip completes when ys emits an element that
        // cannot be paired any more (c at 260), as in RxSwift.
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let ys = scheduler.createHotObservable([.next(240, "a"), .next(250, "b"), .next(260, "c")])
        let res = scheduler.start { Observable.zip(xs, ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(240, "1a"), .next(250, "2b"), .completed(260)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
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

    @Test func zipCollection() {
        let res = TestScheduler().start { Observable.zip([Observable.of(1, 2, 3), Observable.of(10, 20)]) }
        #expect(res.events == [.next(200, [1, 10]), .next(200, [2, 20]), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.zip([Observable<Int>]()) }.events == [.completed(200)])
        let summed = TestScheduler().start { Observable.zip([Observable.just(1), Observable.just(2)]) { $0.reduce(0, +) } }
        #expect(summed.events == [.next(200, 3), .completed(200)])
    }

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

@Suite(.checksResourceLeaks) struct LongChainTests {
    /// 100 000 sources that complete synchronously are started by a loop, not
    /// by recursion (which would overflow the stack).
    @Test func concatOfManySynchronousSources() {
        var count = 0
        var completed = false
        _ = Observable.concat((0..<100_000).map { Observable.just($0) })
            .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
        #expect(count == 100_000)
        #expect(completed)
    }

    @Test func mergeWithLimitOfManyQueuedSynchronousSources() {
        // The gate holds the only slot while the 100 000 others queue up; when it completes, the
        // queued sources run one after another, each completing synchronously.
        let gate = PublishSubject<Int>()
        var sum = 0
        var completed = false
        let sources = [gate.asObservable()] + (1...100_000).map { Observable.just($0) }
        let subscription = Observable.from(sources).merge(maxConcurrent: 1)
            .subscribe(onNext: { sum += $0 }, onCompleted: { completed = true })
        #expect(sum == 0)
        gate.onCompleted()
        #expect(sum == (1...100_000).reduce(0, +))
        #expect(completed)
        subscription.dispose()
    }
}
