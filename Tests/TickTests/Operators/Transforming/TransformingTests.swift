import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct TransformingTests {
    @Test func scanAccumulates() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        #expect(scheduler.start { xs.scan(10) { $0 + $1 } }.events == [.next(210, 12), .next(220, 15), .next(230, 19), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func scanIntoAndThrowsAndError() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(230, TestError(1))])
        #expect(scheduler.start { xs.scan(into: [Int]()) { $0.append($1) } }.events
            == [.next(210, [2]), .next(220, [2, 3]), .error(230, TestError(1))])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(310, 2), .next(320, 3), .completed(330)])
        let res = s2.start(created: 300, subscribed: 300, disposed: 1000) {
            ys.scan(0) { acc, x in
                if x == 3 { throw TestError(2) }
                return acc + x
            }
        }
        #expect(res.events == [.next(310, 2), .error(320, TestError(2))])
        #expect(ys.subscriptions == [Subscription(300, 320)])
    }

    @Test func scanDisposalEmptyNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(230)])
        #expect(scheduler.start(disposed: 215) { xs.scan(0, accumulator: +) }.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(200, 215)])
        #expect(TestScheduler().start { Observable<Int>.empty().scan(0, accumulator: +) }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable<Int>.never().scan(0, accumulator: +) }.events.isEmpty)
    }

    @Test func compactMapDropsNil() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, "1"), .next(210, "2"), .next(220, "x"), .next(230, "4"), .completed(250)])
        #expect(scheduler.start { xs.compactMap { Int($0) } }.events == [.next(210, 2), .next(230, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func compactMapThrowsErrorDisposal() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        #expect(scheduler.start { xs.compactMap { $0 } }.events == [.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(310, 1), .next(320, 2), .completed(330)])
        let thrown = s2.start(created: 300, subscribed: 300, disposed: 1000) {
            ys.compactMap { x -> Int? in if x == 2 { throw TestError(2) }; return x }
        }
        #expect(thrown.events == [.next(310, 1), .error(320, TestError(2))])
        #expect(ys.subscriptions == [Subscription(300, 320)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(410, 1), .next(420, 2)])
        #expect(s3.start(created: 400, subscribed: 400, disposed: 415) { zs.compactMap { $0 } }.events == [.next(410, 1)])
        #expect(zs.subscriptions == [Subscription(400, 415)])
        #expect(TestScheduler().start { Observable<Int?>.never().compactMap { $0 } }.events.isEmpty)
    }
}
