import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct EnumeratedTests {
    @Test func enumeratedCountsFromZero() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, "z"), .next(210, "a"), .next(220, "b"), .completed(230)])
        let res = scheduler.start { xs.enumerated().map { "\($0.index)\($0.element)" } }
        #expect(res.events == [.next(210, "0a"), .next(220, "1b"), .completed(230)])
    }
}
