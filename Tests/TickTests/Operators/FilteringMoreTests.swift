import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct FilteringMoreTests {
    static let source: [Recorded<Event<Int>>] = [
        .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
    ]

    @Test func takeLast() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.takeLast(2) }.events == [.next(250, 3), .next(250, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        #expect(s2.start { ys.takeLast(2) }.events == [.error(220, TestError(1))])
        #expect(TestScheduler().start { Observable.of(1, 2).takeLast(0) }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable.of(1, 2).takeLast(5) }.events == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.never().takeLast(1) }.events.isEmpty)
    }

    @Test func takeWhileAndBehavior() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.take(while: { $0 < 3 }) }.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.take(while: { $0 < 3 }, behavior: .inclusive) }.events
            == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable(Self.source)
        #expect(s3.start { zs.takeWhile { x in if x == 2 { throw TestError(1) }; return true } }.events
            == [.next(210, 1), .error(220, TestError(1))])
        let s4 = TestScheduler()
        let ws = s4.createHotObservable(Self.source)
        #expect(s4.start { ws.take(until: { $0 == 2 }) }.events == [.next(210, 1), .completed(220)])
    }

    @Test func skipWhile() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 5), .next(230, 2), .completed(250)])
        #expect(scheduler.start { xs.skip(while: { $0 < 3 }) }.events == [.next(220, 5), .next(230, 2), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.skipWhile { _ in throw TestError(1) } }.events == [.error(210, TestError(1))])
        #expect(TestScheduler().start { Observable<Int>.never().skip(while: { _ in true }) }.events.isEmpty)
    }

    @Test func elementAtIndex() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.element(at: 2) }.events == [.next(230, 3), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.elementAt(10) }.events == [.error(250, TickError.argumentOutOfRange)])
        var negative: [Recorded<Event<Int>>] = []
        withKnownIssue { negative = TestScheduler().start { Observable.of(1).element(at: -1) }.events }
        #expect(negative == [.error(200, TickError.argumentOutOfRange)])
    }

    @Test func firstAndIgnoreElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.source)
        #expect(scheduler.start { xs.first() }.events == [.next(210, 1), .completed(210)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(TestScheduler().start { Observable<Int>.empty().first() }.events == [.next(200, nil), .completed(200)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable(Self.source)
        #expect(s2.start { ys.ignoreElements() }.events == [.completed(250)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        #expect(s3.start { zs.ignoreElements() }.events == [.error(220, TestError(1))])
    }

    // MARK: take(for:) and skip(for:)

    @Test func takeForExactDeadline() {
        let scheduler = TestScheduler()
        // Window [200, 230): 229 is in, 230 (exactly the deadline) is not.
        let xs = scheduler.createHotObservable([.next(210, 1), .next(229, 2), .next(230, 3), .next(231, 4), .completed(250)])
        #expect(scheduler.start { xs.take(for: .milliseconds(30), scheduler: scheduler) }.events
            == [.next(210, 1), .next(229, 2), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func takeForErrorCompletionDisposal() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        #expect(scheduler.start { xs.take(for: .milliseconds(30), scheduler: scheduler) }.events
            == [.next(210, 1), .error(220, TestError(1))])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .completed(220)])
        #expect(s2.start { ys.take(for: .milliseconds(30), scheduler: s2) }.events == [.next(210, 1), .completed(220)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 1), .next(220, 2)])
        #expect(s3.start(disposed: 215) { zs.take(for: .milliseconds(30), scheduler: s3) }.events == [.next(210, 1)])
        #expect(zs.subscriptions == [Subscription(200, 215)])
        let s4 = TestScheduler()
        #expect(s4.start { Observable<Int>.never().take(for: .milliseconds(30), scheduler: s4) }.events == [.completed(230)])
        let s5 = TestScheduler()
        #expect(s5.start { Observable<Int>.of(1, 2).take(for: .zero, scheduler: s5) }.events == [.completed(200)])
    }

    @Test func skipForExactDeadline() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(229, 2), .next(230, 3), .next(231, 4), .completed(250)])
        #expect(scheduler.start { xs.skip(for: .milliseconds(30), scheduler: scheduler) }.events
            == [.next(230, 3), .next(231, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        #expect(s2.start { ys.skip(for: .milliseconds(30), scheduler: s2) }.events == [.error(220, TestError(1))])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(240, 1), .next(260, 2)])
        #expect(s3.start(disposed: 250) { zs.skip(for: .milliseconds(30), scheduler: s3) }.events == [.next(240, 1)])
        #expect(zs.subscriptions == [Subscription(200, 250)])
    }

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

    // MARK: sample

    @Test func sampleEmitsLatestSinceLastSample() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(270)])
        let ticks = scheduler.createHotObservable([.next(230, "t"), .next(240, "t"), .next(260, "t"), .next(280, "t"), .next(290, "t")])
        #expect(scheduler.start { xs.sample(ticks) }.events == [.next(230, 2), .next(260, 3), .completed(280)])
        #expect(xs.subscriptions == [Subscription(200, 270)])
        #expect(ticks.subscriptions == [Subscription(200, 280)])
    }

    @Test func sampleDefaultValueSamplerCompletionAndErrors() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let ticks = scheduler.createHotObservable([.next(220, "t"), .next(230, "t"), .completed(240)])
        // The sampler's completion is a last sample (the default value); the source has not
        // completed, so the result does not complete (RxSwift's rule).
        #expect(scheduler.start { xs.sample(ticks, defaultValue: 0) }.events == [.next(220, 1), .next(230, 0), .next(240, 0)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .next(215, 2)])
        let ends = s2.createHotObservable([.completed(220, String.self)])
        #expect(s2.start { ys.sample(ends) }.events == [.next(220, 2)])
        #expect(ys.subscriptions == [Subscription(200, 1000)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 1), .error(215, TestError(1))])
        let quiet = s3.createHotObservable([.next(300, "t")])
        #expect(s3.start { zs.sample(quiet) }.events == [.error(215, TestError(1))])
        #expect(quiet.subscriptions == [Subscription(200, 215)])
        let s4 = TestScheduler()
        let ws = s4.createHotObservable([.next(210, 1)])
        let tick = s4.createHotObservable([.next(220, "t"), .next(240, "t")])
        #expect(s4.start(disposed: 230) { ws.sample(tick) }.events == [.next(220, 1)])
        #expect(ws.subscriptions == [Subscription(200, 230)])
    }
}
