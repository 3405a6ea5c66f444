import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct ControlEventTests {
    @Test @MainActor func subscribesAtOnceOnTheMainThread() {
        let taps = PublishSubject<Int>()
        let event = ControlEvent(events: taps)
        var seen: [Int] = []
        let subscription = event.subscribe(onNext: { seen.append($0) })
        // Subscribed synchronously: the main thread's subscription was not
        // deferred to the main queue.
        taps.onNext(1)
        subscription.dispose()
        #expect(seen == [1])
    }

    @Test @MainActor func convertsToInfallibleDriverAndSignal() {
        let scheduler = TestScheduler()
        let failing = ControlEvent(events: Observable<Int>.error(TestError(1)))
        var completed = 0
        let subscriptions = SharingScheduler.mock(scheduler: scheduler) {
            [
                failing.asInfallible().subscribe(onCompleted: { completed += 1 }),
                failing.asDriver().drive(onCompleted: { completed += 1 }),
                failing.asSignal().emit(onCompleted: { completed += 1 }),
            ]
        }
        scheduler.run()
        subscriptions.forEach { $0.dispose() }
        #expect(completed == 3)
    }
}
