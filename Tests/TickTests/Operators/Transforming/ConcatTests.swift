import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct ConcatTests {
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
