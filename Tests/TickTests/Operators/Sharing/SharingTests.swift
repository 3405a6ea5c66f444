import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SharingTests {
    /// Subscribes `observable` with a new observer at `subscribe`, disposing it at `dispose`.
    static func observe<O: ObservableType>(
        _ observable: O, on scheduler: TestScheduler, from subscribe: TestTime, to dispose: TestTime
    ) -> TestableObserver<O.Element> {
        let observer = scheduler.createObserver(O.Element.self)
        var subscription: (any Disposable)?
        scheduler.scheduleAt(subscribe) { subscription = observable.subscribe(observer) }
        scheduler.scheduleAt(dispose) { subscription?.dispose() }
        return observer
    }

    @Test func shareUsesOneSourceSubscription() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let shared = xs.share()
        let o1 = Self.observe(shared, on: scheduler, from: 200, to: 1000)
        let o2 = Self.observe(shared, on: scheduler, from: 215, to: 225)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        #expect(o2.events == [.next(220, 2)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func shareReplayWhileConnectedResetsAfterLastObserverLeaves() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
        let shared = xs.share(replay: 1)
        let o1 = Self.observe(shared, on: scheduler, from: 200, to: 240)
        let o2 = Self.observe(shared, on: scheduler, from: 215, to: 230)
        // Everyone left at 240: the next subscriber starts a new connection with an empty buffer.
        let o3 = Self.observe(shared, on: scheduler, from: 250, to: 1000)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .next(220, 2)])
        #expect(o2.events == [.next(215, 1), .next(220, 2)])
        #expect(o3.events == [.next(260, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 240), Subscription(250, 300)])
    }

    @Test func shareReplayForeverKeepsBuffer() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
        let shared = xs.share(replay: 1, scope: .forever)
        let o1 = Self.observe(shared, on: scheduler, from: 200, to: 240)
        let o3 = Self.observe(shared, on: scheduler, from: 250, to: 1000)
        let late = Self.observe(shared, on: scheduler, from: 400, to: 1000)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .next(220, 2)])
        #expect(o3.events == [.next(250, 2), .next(260, 3), .completed(300)])
        // After the source completed, the subject replays and completes; the source is not resubscribed.
        #expect(late.events == [.next(400, 3), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 240), Subscription(250, 300)])
    }

    @Test func shareWhileConnectedResubscribesAfterCompletion() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.share(replay: 1)
        let o1 = Self.observe(shared, on: scheduler, from: 200, to: 1000)
        let o2 = Self.observe(shared, on: scheduler, from: 300, to: 1000)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .completed(220)])
        #expect(o2.events == [.next(310, 1), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }

    @Test func shareErrorDisposalEmptyNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let shared = xs.share()
        let o1 = Self.observe(shared, on: scheduler, from: 200, to: 1000)
        let o2 = Self.observe(shared, on: scheduler, from: 205, to: 1000)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(o2.events == o1.events)
        #expect(xs.subscriptions == [Subscription(200, 220)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .next(230, 2)])
        #expect(s2.start(disposed: 220) { ys.share(replay: 2) }.events == [.next(210, 1)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
        #expect(TestScheduler().start { Observable<Int>.empty().share() }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable<Int>.never().share(replay: 1) }.events.isEmpty)
    }

    @Test func publishConnectAndRefCount() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let published = xs.publish()
        let o1 = Self.observe(published, on: scheduler, from: 200, to: 1000)
        var connection: (any Disposable)?
        scheduler.scheduleAt(215) { connection = published.connect() }
        scheduler.scheduleAt(225) { connection?.dispose() }
        scheduler.run()
        #expect(o1.events == [.next(220, 2)])
        #expect(xs.subscriptions == [Subscription(215, 225)])
    }

    @Test func replayConnectable() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let replayed = xs.replay(1)
        var connection: (any Disposable)?
        scheduler.scheduleAt(200) { connection = replayed.connect() }
        let late = Self.observe(replayed, on: scheduler, from: 225, to: 1000)
        scheduler.run()
        #expect(late.events == [.next(225, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        connection?.dispose()
    }

    @Test func multicastWithFreshSubjects() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let multicast = xs.multicast(makeSubject: { ReplaySubject<Int>.createUnbounded() }).refCount()
        let o1 = Self.observe(multicast, on: scheduler, from: 200, to: 1000)
        let o2 = Self.observe(multicast, on: scheduler, from: 300, to: 1000)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .completed(220)])
        #expect(o2.events == [.next(310, 1), .completed(320)])
    }

    @Test func reentrantSubscriptionFromOnNext() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var inner: [Int] = []
        var innerSubscription: (any Disposable)?
        let outer = shared.subscribe(onNext: { _ in
            if innerSubscription == nil { innerSubscription = shared.subscribe(onNext: { inner.append($0) }) }
        })
        subject.onNext(1)
        subject.onNext(2)
        #expect(inner == [1, 2])
        outer.dispose()
        innerSubscription?.dispose()
        #expect(!subject.hasObservers)
    }
}
