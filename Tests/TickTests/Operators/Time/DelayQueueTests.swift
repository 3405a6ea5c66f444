import Testing
import Tick
import TickTesting

/// `delay` over runs long enough for its queue to grow, drain and wrap
/// around many times.
@Suite(.checksResourceLeaks) struct DelayQueueTests {
    @Test func delayKeepsEveryElementAndItsSpacingOverALongIrregularRun() {
        let scheduler = TestScheduler()
        // Bursts and gaps, so the pending queue grows to a few dozen elements
        // and empties again, over and over.
        var times: [Int] = []
        var time = 201
        for index in 0..<500 {
            times.append(time)
            time += index % 37 == 0 ? 45 : (index % 5 == 0 ? 3 : 1)
        }
        let recorded = times.enumerated().map { Recorded.next(TestTime($0.element), $0.offset) }
        let xs = scheduler.createHotObservable(recorded + [.completed(TestTime(time))])
        let res = scheduler.start(disposed: 100_000) { xs.delay(.milliseconds(40), scheduler: scheduler) }
        let expected = times.enumerated().map { Recorded.next(TestTime($0.element + 40), $0.offset) }
        #expect(res.events == expected + [.completed(TestTime(time + 40))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func delayDisposedWhileElementsWaitCancelsItsTimer() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable((0..<100).map { Recorded.next(TestTime(201 + $0), $0) })
        let res = scheduler.start(disposed: 260) { xs.delay(.milliseconds(30), scheduler: scheduler) }
        #expect(res.events == (0..<29).map { Recorded.next(TestTime(231 + $0), $0) })
        #expect(scheduler.pendingCount == 0)
    }
}
