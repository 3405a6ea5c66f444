import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct TimeFilteringTests {
    static let due = Duration.milliseconds(20)

    // MARK: debounce

    @Test func debounceExactDeadlines() {
        let scheduler = TestScheduler()
        // 2 arrives one frame before 1's deadline (230): 1 is dropped. 3 arrives exactly at 2's
        // deadline (249): 2 is emitted first. 4 arrives one frame after 3's deadline (269).
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(229, 2), .next(249, 3), .next(270, 4), .completed(295),
        ])
        let res = scheduler.start { xs.debounce(Self.due, scheduler: scheduler) }
        #expect(res.events == [.next(249, 2), .next(269, 3), .next(290, 4), .completed(295)])
        #expect(xs.subscriptions == [Subscription(200, 295)])
    }

    @Test func debounceCompletionFlushesWaitingElement() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        #expect(scheduler.start { xs.debounce(Self.due, scheduler: scheduler) }.events == [.next(215, 1), .completed(215)])
    }

    @Test func debounceErrorDropsWaitingElement() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(215, TestError(1))])
        #expect(scheduler.start { xs.debounce(Self.due, scheduler: scheduler) }.events == [.error(215, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 215)])
    }

    @Test func debounceDisposalCancelsTimerEmptyNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        #expect(scheduler.start(disposed: 225) { xs.debounce(Self.due, scheduler: scheduler) }.events.isEmpty)
        #expect(xs.subscriptions == [Subscription(200, 225)])
        let s2 = TestScheduler()
        #expect(s2.start { Observable<Int>.empty().debounce(Self.due, scheduler: s2) }.events == [.completed(200)])
        let s3 = TestScheduler()
        #expect(s3.start { Observable<Int>.never().debounce(Self.due, scheduler: s3) }.events.isEmpty)
    }

    @Test func debounceKeepsOnePendingTimer() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        let d = subject.debounce(Self.due, scheduler: scheduler).subscribe(observer)
        for i in 0..<1000 { subject.onNext(i) }
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: 20)
        #expect(observer.events == [.next(20, 999)])
        d.dispose()
    }

    @Test func debounceReentrant() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let d = subject.debounce(.zero, scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            if value < 3 { subject.onNext(value + 1) }
        })
        subject.onNext(1)
        scheduler.run()
        #expect(received == [1, 2, 3])
        d.dispose()
    }

    // MARK: throttle

    static let throttleSource: [Recorded<Event<Int>>] = [
        .next(150, 0), .next(210, 1), .next(215, 2), .next(220, 3), .next(250, 4),
        .next(269, 5), .next(270, 6), .next(291, 7), .completed(300),
    ]

    @Test func throttleLatestExactDeadlines() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.throttleSource)
        let res = scheduler.start { xs.throttle(Self.due, scheduler: scheduler) }
        // 1 opens [210, 230); 3 is the latest in it, emitted at 230 (opens [230, 250)).
        // 4 arrives exactly at 250 with nothing waiting: emitted at once. 5 (one frame before 270) waits;
        // 6 arrives exactly at 270: 5 is emitted first, 6 waits until 290. 7 (291) waits until 310;
        // the completion at 300 waits for it.
        #expect(res.events == [
            .next(210, 1), .next(230, 3), .next(250, 4), .next(270, 5), .next(290, 6), .next(310, 7), .completed(310),
        ])
        // The source subscription ends when the source completes (300), not with the deferred completion.
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func throttleWithoutLatestDropsWithinWindow() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable(Self.throttleSource)
        let res = scheduler.start { xs.throttle(Self.due, latest: false, scheduler: scheduler) }
        // Windows: [210, 230), [250, 270), [270, 290), [291, 311). 269 is dropped, 270 is not.
        #expect(res.events == [.next(210, 1), .next(250, 4), .next(270, 6), .next(291, 7), .completed(300)])
    }

    @Test func throttleErrorDropsWaitingElement() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(220, TestError(1))])
        #expect(scheduler.start { xs.throttle(Self.due, scheduler: scheduler) }.events
            == [.next(210, 1), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func throttleCompletionWithoutWaitingElementIsImmediate() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(215)])
        #expect(scheduler.start { xs.throttle(Self.due, scheduler: scheduler) }.events == [.next(210, 1), .completed(215)])
    }

    @Test func throttleDisposalCancelsTimerEmptyNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(300, 3)])
        #expect(scheduler.start(disposed: 225) { xs.throttle(Self.due, scheduler: scheduler) }.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 225)])
        let s2 = TestScheduler()
        #expect(s2.start { Observable<Int>.empty().throttle(Self.due, scheduler: s2) }.events == [.completed(200)])
        let s3 = TestScheduler()
        #expect(s3.start { Observable<Int>.never().throttle(Self.due, scheduler: s3) }.events.isEmpty)
    }

    @Test func throttleKeepsOnePendingTimer() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        let d = subject.throttle(Self.due, scheduler: scheduler).subscribe(observer)
        for i in 0..<1000 { subject.onNext(i) }
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: 20)
        #expect(observer.events == [.next(0, 0), .next(20, 999)])
        d.dispose()
    }
}
