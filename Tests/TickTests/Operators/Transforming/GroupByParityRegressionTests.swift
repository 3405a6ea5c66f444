import Testing
import Tick
import TickTesting

/// Regression tests for behaviours of issue 12 where Tick differed from
/// RxSwift by mistake. Each one failed before the fix; times in frames.
@Suite(.checksResourceLeaks) struct GroupByParityRegressionTests {
    // MARK: Deviations dropped: now as in RxSwift

    @Test func groupByKeepsTheSourceWhileAGroupIsStillSubscribed() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let odd = scheduler.createObserver(Int.self)
        let groupSubscriptions = Locked<[any Disposable]>([])
        scheduler.scheduleAt(260) { for disposable in groupSubscriptions.current { disposable.dispose() } }
        let res = scheduler.start(disposed: 225) {
            xs.groupBy { $0 % 2 }.do(onNext: { group in
                guard group.key == 1 else { return }
                let subscription = group.subscribe(odd)
                groupSubscriptions.withLock { $0.append(subscription) }
            })
        }
        // The result was disposed at 225, but the odd group stays subscribed until 260, and the
        // source with it.
        #expect(res.events.map(\.time) == [210, 220])
        #expect(odd.events == [.next(210, 1), .next(230, 3)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func groupByDisposesTheSourceWhenTheResultAndEveryGroupAreDisposed() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start(disposed: 225) { xs.groupBy { $0 % 2 } }
        #expect(res.events.count == 2)
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    // MARK: A kept deviation

    @Test func groupByKeySelectorErrorDisposesTheSourceAtOnce() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let odd = scheduler.createObserver(Int.self)
        let groupSubscriptions = Locked<[any Disposable]>([])
        scheduler.scheduleAt(500) { for disposable in groupSubscriptions.current { disposable.dispose() } }
        let res = scheduler.start {
            xs.groupBy { value -> Int in
                if value == 2 { throw TestError(2) }
                return value % 2
            }.do(onNext: { group in
                let subscription = group.subscribe(odd)
                groupSubscriptions.withLock { $0.append(subscription) }
            })
        }
        // RxSwift would keep the source until the group subscription goes at 500.
        #expect(res.events.map(\.time) == [210, 220])
        #expect(odd.events == [.next(210, 1), .error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }
}
