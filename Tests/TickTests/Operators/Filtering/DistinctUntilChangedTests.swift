import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct DistinctUntilChangedTests {
    @Test func distinctUntilChangedAtKeyPath() {
        struct Point { var x: Int; var y: Int }
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(210, Point(x: 1, y: 1)), .next(220, Point(x: 1, y: 2)), .next(230, Point(x: 2, y: 2)), .completed(240),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.x).map(\.y) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
    }
}
