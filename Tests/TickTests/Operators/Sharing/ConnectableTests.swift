import Testing
import Tick
import TickTesting

/// `ConnectableObservableType` and `multicast(_:selector:)`.
@Suite(.checksResourceLeaks) struct ConnectableTests {
    // MARK: ConnectableObservableType and multicast

    /// A connectable of its own: a subject fed by the source on `connect()`.
    struct ManualConnectable<Element>: ConnectableObservableType {
        let source: Observable<Element>
        let subject = PublishSubject<Element>()

        func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Element {
            subject.subscribe(observer)
        }

        func connect() -> any Disposable { source.subscribe(subject) }
    }

    @Test func refCountWorksOnAnyConnectable() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let shared = ManualConnectable(source: xs.asObservable()).refCount()
        let o1 = SharingTests.observe(shared, on: scheduler, from: 205, to: 225)
        let o2 = SharingTests.observe(shared, on: scheduler, from: 215, to: 240)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .next(220, 2)])
        #expect(o2.events == [.next(220, 2), .next(230, 3)])
        #expect(xs.subscriptions == [Subscription(205, 240)])
    }

    @Test func multicastWithASelectorConnectsEachSubscription() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let factoryCalls = Locked(0)
        let res = scheduler.start {
            xs.multicast({ () -> PublishSubject<Int> in
                factoryCalls.withLock { $0 += 1 }
                return PublishSubject<Int>()
            }, selector: { shared in Observable.zip(shared, shared.map { $0 * 10 }) { $0 + $1 } })
        }
        #expect(res.events == [.next(210, 11), .next(220, 22), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(factoryCalls.current == 1)
    }

    @Test func multicastWithASelectorFailsWhenAClosureThrows() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let res = scheduler.start {
            xs.multicast({ () -> PublishSubject<Int> in PublishSubject() }, selector: { _ -> Observable<Int> in throw TestError(7) })
        }
        #expect(res.events == [.error(200, TestError(7))])
        #expect(xs.subscriptions.isEmpty)
    }
}
