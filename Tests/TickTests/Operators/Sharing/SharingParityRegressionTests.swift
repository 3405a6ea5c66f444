import Testing
import Tick
import TickTesting

/// Regression tests for behaviours of issue 12 where Tick differed from
/// RxSwift by mistake. Each one failed before the fix; times in frames.
@Suite(.checksResourceLeaks) struct SharingParityRegressionTests {
    // MARK: 6. share/refCount re-subscription from a terminal handler

    /// Subscribes `first` at 200; when it completes or fails, subscribes
    /// `again` from inside that handler; subscribes `later` at 400.
    static func resubscribeFromTerminalHandler<O: ObservableType>(
        _ shared: O, on scheduler: TestScheduler
    ) -> (first: TestableObserver<O.Element>, again: TestableObserver<O.Element>, later: TestableObserver<O.Element>) {
        let first = scheduler.createObserver(O.Element.self)
        let again = scheduler.createObserver(O.Element.self)
        let later = scheduler.createObserver(O.Element.self)
        let bag = Locked<[any Disposable]>([])
        scheduler.scheduleAt(200) {
            let subscription = shared.subscribe { event in
                first.on(event)
                if event.isStopEvent {
                    let inner = shared.subscribe(again)
                    bag.withLock { $0.append(inner) }
                }
            }
            bag.withLock { $0.append(subscription) }
        }
        scheduler.scheduleAt(400) {
            let subscription = shared.subscribe(later)
            bag.withLock { $0.append(subscription) }
        }
        scheduler.scheduleAt(1000) { for disposable in bag.current { disposable.dispose() } }
        scheduler.run()
        return (first, again, later)
    }

    @Test func shareLetsAnObserverSubscribeAgainFromItsCompletionHandler() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let (first, again, later) = Self.resubscribeFromTerminalHandler(xs.share(), on: scheduler)
        #expect(first.events == [.next(210, 1), .completed(220)])
        #expect(again.events == [.next(230, 1), .completed(240)])
        #expect(later.events == [.next(410, 1), .completed(420)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(400, 420)])
    }

    @Test func refCountLetsAnObserverSubscribeAgainFromItsErrorHandler() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let (first, again, later) = Self.resubscribeFromTerminalHandler(xs.publish().refCount(), on: scheduler)
        #expect(first.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(again.events == [.next(230, 1), .error(240, TestError(1))])
        #expect(later.events == [.next(410, 1), .error(420, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(400, 420)])
    }

    // MARK: 7. a fresh subject per connection

    @Test func publishRefCountRunsTheSourceAgainAfterItCompleted() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.publish().refCount()
        let o1 = SharingTests.observe(shared, on: scheduler, from: 200, to: 1000)
        let o2 = SharingTests.observe(shared, on: scheduler, from: 300, to: 1000)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .completed(220)])
        #expect(o2.events == [.next(310, 1), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }

    @Test func publishObserversOfAnEarlierConnectionDoNotSeeTheNextOne() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        let connectable = xs.publish()
        let old = SharingTests.observe(connectable, on: scheduler, from: 200, to: 1000)
        let new = SharingTests.observe(connectable, on: scheduler, from: 245, to: 1000)
        let connection = Locked<(any Disposable)?>(nil)
        scheduler.scheduleAt(205) { connection.withLock { $0 = connectable.connect() } }
        scheduler.scheduleAt(240) { connection.withLock { $0?.dispose() } }
        scheduler.scheduleAt(250) { connection.withLock { $0 = connectable.connect() } }
        scheduler.run()
        #expect(old.events == [.next(210, 1), .next(230, 2)])
        #expect(new.events == [.next(260, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(205, 240), Subscription(250, 300)])
    }

    @Test func replayDoesNotReplayAnEarlierConnectionsElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        let connectable = xs.replay(1)
        let old = SharingTests.observe(connectable, on: scheduler, from: 200, to: 1000)
        let new = SharingTests.observe(connectable, on: scheduler, from: 245, to: 1000)
        let all = xs.replayAll()
        let newAll = SharingTests.observe(all, on: scheduler, from: 245, to: 1000)
        let connection = Locked<[any Disposable]>([])
        scheduler.scheduleAt(205) { connection.withLock { $0 = [connectable.connect(), all.connect()] } }
        scheduler.scheduleAt(240) { connection.withLock { $0.forEach { $0.dispose() } } }
        scheduler.scheduleAt(250) { connection.withLock { $0 = [connectable.connect(), all.connect()] } }
        scheduler.run()
        #expect(old.events == [.next(210, 1), .next(230, 2)])
        #expect(new.events == [.next(260, 3), .completed(300)])
        #expect(newAll.events == [.next(260, 3), .completed(300)])
    }
}
