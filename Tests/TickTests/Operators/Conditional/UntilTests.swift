import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct UntilTests {
    static let source: [Recorded<Event<Int>>] = [
        .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
    ]

    // MARK: take(until:) and skip(until:)

    @Test func takeUntilOther() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        let stop = scheduler.createHotObservable([.next(225, "stop"), .next(235, "again")])
        #expect(scheduler.start { xs.take(until: stop) }.events == [.next(210, 1), .next(220, 2), .completed(225)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        #expect(stop.subscriptions == [Subscription(200, 225)])
    }

    @Test func takeUntilOtherCompletesOrFails() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        let quiet = scheduler.createHotObservable([.completed(215, Int.self)])
        #expect(scheduler.start { xs.takeUntil(quiet) }.events
            == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        #expect(quiet.subscriptions == [Subscription(200, 215)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        let failing = s2.createHotObservable([.error(215, TestError(1), Int.self)])
        #expect(s2.start { ys.take(until: failing) }.events == [.next(210, 1), .error(215, TestError(1))])
        #expect(TestScheduler().start { Observable<Int>.never().take(until: Observable<Int>.never()) }.events.isEmpty)
    }

    @Test func skipUntilOther() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        let go = scheduler.createHotObservable([.next(225, "go"), .next(235, "again")])
        #expect(scheduler.start { xs.skip(until: go) }.events == [.next(230, 3), .next(240, 4), .completed(250)])
        #expect(go.subscriptions == [Subscription(200, 225)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        let never = s2.createHotObservable([.completed(215, Int.self)])
        // The gate never opened: as in RxSwift, the source's completion is not forwarded; both
        // subscriptions end and the result ends silently.
        #expect(s2.start { ys.skipUntil(never) }.events == [])
        #expect(ys.subscriptions == [Subscription(200, 250)])
        #expect(never.subscriptions == [Subscription(200, 215)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable(Self.source)
        let failing = s3.createHotObservable([.error(215, TestError(1), Int.self)])
        #expect(s3.start { zs.skip(until: failing) }.events == [.error(215, TestError(1))])
        #expect(zs.subscriptions == [Subscription(200, 215)])
    }
}
