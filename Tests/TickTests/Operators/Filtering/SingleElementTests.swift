import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SingleElementTests {
    @Test func singleForwardsAtOnceAndCompletesWithTheSource() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        #expect(scheduler.start { xs.single() }.events == [.next(210, 1), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        #expect(s2.start { ys.single() }.events == [.next(210, 1), .error(220, TickError.moreThanOneElement)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.completed(250, Int.self)])
        #expect(s3.start { zs.single() }.events == [.error(250, TickError.noElements)])
    }

    @Test func singleWithPredicate() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        #expect(scheduler.start { xs.single { $0 == 2 } }.events == [.next(220, 2), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        #expect(s2.start { ys.single { $0 > 1 } }.events == [.next(220, 2), .error(230, TickError.moreThanOneElement)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 1), .completed(250)])
        #expect(s3.start { zs.single { _ in throw TestError(7) } }.events == [.error(210, TestError(7))])
    }
}
