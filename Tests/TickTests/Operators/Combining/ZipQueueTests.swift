import Testing
import Tick
import TickTesting

/// `zip` over runs long enough for its queues to grow, drain and wrap
/// around many times.
@Suite(.checksResourceLeaks) struct ZipQueueTests {
    @Test func zipPairsElementsInOrderWhenOneSideRunsFarAhead() {
        let scheduler = TestScheduler()
        let fast = scheduler.createHotObservable((0..<300).map { Recorded.next(TestTime(201 + $0), $0) })
        let slow = scheduler.createHotObservable((0..<300).map { Recorded.next(TestTime(201 + 3 * $0), -$0) })
        let res = scheduler.start(disposed: 5_000) { Observable.zip(fast, slow) { $0 + $1 } }
        #expect(res.events == (0..<300).map { Recorded.next(TestTime(201 + 3 * $0), 0) })
    }
}
