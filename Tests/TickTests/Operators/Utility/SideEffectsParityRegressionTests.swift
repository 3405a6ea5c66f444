import Testing
import Tick
import TickTesting

/// Regression tests for behaviours of issue 12 where Tick differed from
/// RxSwift by mistake. Each one failed before the fix; times in frames.
@Suite(.checksResourceLeaks) struct SideEffectsParityRegressionTests {
    // MARK: 8. do(onDispose:) runs after the source subscription was disposed

    @Test func doOnDisposeRunsAfterTheSourceWasDisposed() {
        for terminal in [Recorded<Event<Int>>.completed(300), .error(300, TestError(1))] {
            let scheduler = TestScheduler()
            let xs = scheduler.createHotObservable([.next(210, 1), terminal])
            let seen = Locked<[Subscription]?>(nil)
            _ = scheduler.start {
                xs.map { $0 * 2 }.do(onDispose: { seen.withLock { $0 = xs.subscriptions } })
            }
            #expect(seen.current == [Subscription(200, 300)])
        }
        // And on disposal from downstream.
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let seen = Locked<[Subscription]?>(nil)
        _ = scheduler.start(disposed: 500) {
            xs.map { $0 * 2 }.do(onDispose: { seen.withLock { $0 = xs.subscriptions } })
        }
        #expect(seen.current == [Subscription(200, 500)])
    }

    @Test func aChainReleasesFromTheSourceDownOnATerminalEvent() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let log = Locked<[String]>([])
        _ = scheduler.start {
            xs.do(onDispose: { log.withLock { $0.append("inner") } })
                .filter { _ in true }
                .do(onDispose: { log.withLock { $0.append("outer") } })
        }
        #expect(log.current == ["inner", "outer"])
    }
}
