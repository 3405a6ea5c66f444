import Testing
import Tick
import TickTesting

/// A `@MainActor` view model driven by a `TestScheduler`: its subscribe
/// closures are delivered on the main actor, and a test sees them at the
/// exact virtual time, whether it runs on the main actor or not.
@Suite(.checksResourceLeaks) struct MainActorVirtualTimeTests {
    @MainActor final class TickerModel {
        private(set) var ticks: [Int] = []
        /// The ticks too, readable without going through the main actor.
        let log = Locked<[Int]>([])
        private var subscription: (any Disposable)?

        func start(on scheduler: any Scheduler) {
            subscription = Observable<Int>.interval(.seconds(1), scheduler: scheduler).subscribe(onNext: { tick in
                self.ticks.append(tick)
                self.log.withLock { $0.append(tick) }
            })
        }

        func stop() { subscription?.dispose() }
    }

    @Test @MainActor func onTheMainActorASynchronousAdvanceDeliversAtOnce() {
        let scheduler = TestScheduler()
        let model = TickerModel()
        model.start(on: scheduler)
        scheduler.advance(by: .milliseconds(1_999))
        #expect(model.ticks == [0])
        scheduler.advance(by: .milliseconds(1))
        #expect(model.ticks == [0, 1])
        model.stop()
    }

    @Test @MainActor func onTheMainActorAnAsyncAdvanceDeliversAtOnce() async {
        let scheduler = TestScheduler()
        let model = TickerModel()
        model.start(on: scheduler)
        await scheduler.advance(by: .milliseconds(2_999))
        #expect(model.ticks == [0, 1])
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.ticks == [0, 1, 2])
        model.stop()
    }

    /// The test is not on the main actor: each tick arrives on the test's
    /// thread and is queued for the main actor, as a task the async advance
    /// waits for (the log is read without going through the main actor).
    @Test func offTheMainActorAnAsyncAdvanceWaitsForTheDeliveries() async {
        let scheduler = TestScheduler()
        let model = TickerModel()
        await model.start(on: scheduler)
        await scheduler.advance(by: .milliseconds(1_999))
        #expect(model.log.current == [0])
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.log.current == [0, 1])
        #expect(await model.ticks == [0, 1])
        await model.stop()
    }

    /// An actor's closures run in tasks on it; the async advance waits for
    /// them too.
    actor TickerActor {
        let log = Locked<[Int]>([])
        private var subscription: (any Disposable)?

        func start(on scheduler: any Scheduler) {
            subscription = Observable<Int>.interval(.seconds(1), scheduler: scheduler).subscribe(onNext: { tick in
                self.log.withLock { $0.append(tick) }
            })
        }

        func stop() { subscription?.dispose() }
    }

    @Test func anActorsClosuresAreDeliveredBeforeTheAsyncAdvanceReturns() async {
        let scheduler = TestScheduler()
        let ticker = TickerActor()
        await ticker.start(on: scheduler)
        await scheduler.advance(by: .milliseconds(1_999))
        #expect(ticker.log.current == [0])
        await scheduler.advance(by: .milliseconds(1))
        #expect(ticker.log.current == [0, 1])
        await ticker.stop()
    }
}
