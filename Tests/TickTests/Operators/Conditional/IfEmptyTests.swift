import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct IfEmptyTests {
    @Test func ifEmptyDefault() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250, Int.self)])
        #expect(scheduler.start { xs.ifEmpty(default: 9) }.events == [.next(250, 9), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .completed(250)])
        #expect(s2.start { ys.ifEmpty(default: 9) }.events == [.next(210, 1), .completed(250)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.error(250, TestError(1), Int.self)])
        #expect(s3.start { zs.ifEmpty(default: 9) }.events == [.error(250, TestError(1))])
    }

    @Test func ifEmptySwitchTo() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let ys = scheduler.createColdObservable([.next(10, 5), .completed(20)])
        #expect(scheduler.start { xs.ifEmpty(switchTo: ys) }.events == [.next(260, 5), .completed(270)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(250, 270)])
        let s2 = TestScheduler()
        let as2 = s2.createHotObservable([.next(210, 1), .completed(250)])
        let bs2 = s2.createColdObservable([.next(10, 5), .completed(20)])
        #expect(s2.start { as2.ifEmpty(switchTo: bs2) }.events == [.next(210, 1), .completed(250)])
        #expect(bs2.subscriptions.isEmpty)
    }
}
