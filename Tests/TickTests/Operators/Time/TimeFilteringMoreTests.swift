import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct TakeSkipForAndSampleTests {
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
