import Dispatch
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct TimeTests {
    // MARK: delaySubscription

    @Test func delaySubscriptionSubscribesAtExactlyTheDueTime() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.delaySubscription(.milliseconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(240, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(230, 250)])
    }

    @Test func delaySubscriptionWithAHotSource() {
        let scheduler = TestScheduler()
        // The hot events were scheduled when the observable was created, so the one at exactly 230
        // happens before the subscription made at 230: only 231 is seen.
        let xs = scheduler.createHotObservable([.next(229, 1), .next(230, 2), .next(231, 3), .error(240, TestError(1))])
        let res = scheduler.start { xs.delaySubscription(.milliseconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(231, 3), .error(240, TestError(1))])
        #expect(xs.subscriptions == [Subscription(230, 240)])
    }

    @Test func delaySubscriptionDisposedBeforeSubscribing() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        #expect(scheduler.start(disposed: 229) { xs.delaySubscription(.milliseconds(30), scheduler: scheduler) }.events.isEmpty)
        #expect(xs.subscriptions.isEmpty)
        let s2 = TestScheduler()
        #expect(s2.start { Observable<Int>.empty().delaySubscription(.milliseconds(30), scheduler: s2) }.events == [.completed(230)])
        let s3 = TestScheduler()
        #expect(s3.start { Observable<Int>.never().delaySubscription(.milliseconds(30), scheduler: s3) }.events.isEmpty)
    }

    // MARK: one event per scheduled action

    @Test func subscribeOnSubscribesTheSourceItselfAndDisposesItOnTheScheduler() {
        // As RxSwift: the source is not wrapped by asObservable(), so its subscription ends
        // when the disposal scheduled on the scheduler runs (one frame later, with RxTest's
        // processing delay), not at the terminal event.
        let scheduler = TestScheduler(frame: .seconds(1), simulateProcessingDelay: true)
        let xs = scheduler.createHotObservable([.completed(300, Int.self)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.completed(300)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test func observeOnDeliversOneEventPerScheduledAction() {
        // RxSwift's observeOn forwards one event per action and schedules the next: with
        // RxTest's processing delay, the completion comes one frame after the element.
        let scheduler = TestScheduler(frame: .seconds(1), simulateProcessingDelay: true)
        let res = scheduler.start { Observable.just(1).observe(on: scheduler) }
        #expect(res.events == [.next(201, 1), .completed(202)])
        let plain = TestScheduler()
        #expect(plain.start { Observable.of(1, 2).observe(on: plain) }.events
            == [.next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test func delayDeliversOneEventPerScheduledAction() {
        let scheduler = TestScheduler(frame: .seconds(1), simulateProcessingDelay: true)
        let res = scheduler.start { Observable.just(1).delay(.seconds(2), scheduler: scheduler) }
        #expect(res.events == [.next(202, 1), .completed(203)])
        // Events due at different instants keep their exact times.
        let spaced = TestScheduler(frame: .seconds(1), simulateProcessingDelay: true)
        let xs = spaced.createHotObservable([.next(210, 1), .next(211, 2), .completed(212)])
        #expect(spaced.start { xs.delay(.seconds(2), scheduler: spaced) }.events
            == [.next(212, 1), .next(213, 2), .completed(214)])
    }

    // MARK: timeout

    @Test func timeoutExactDeadlines() {
        let scheduler = TestScheduler()
        // Deadlines: 220 from subscription; then 230 after 210, 249 after 229. 3 arrives exactly at 249.
        let xs = scheduler.createHotObservable([.next(210, 1), .next(229, 2), .next(249, 3), .completed(300)])
        let res = scheduler.start { xs.timeout(.milliseconds(20), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(229, 2), .error(249, TickError.timeout)])
        #expect(xs.subscriptions == [Subscription(200, 249)])
    }

    @Test func timeoutOneFrameEitherSideOfTheFirstDeadline() {
        let early = TestScheduler()
        let a = early.createHotObservable([.next(219, 1), .completed(221)])
        #expect(early.start { a.timeout(.milliseconds(20), scheduler: early) }.events == [.next(219, 1), .completed(221)])
        let late = TestScheduler()
        let b = late.createHotObservable([.next(221, 1)])
        #expect(late.start { b.timeout(.milliseconds(20), scheduler: late) }.events == [.error(220, TickError.timeout)])
        let exact = TestScheduler()
        let c = exact.createHotObservable([.completed(220, Int.self)])
        #expect(exact.start { c.timeout(.milliseconds(20), scheduler: exact) }.events == [.error(220, TickError.timeout)])
        #expect(c.subscriptions == [Subscription(200, 220)])
    }

    @Test func timeoutSwitchesToFallback() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let other = scheduler.createColdObservable([.next(5, 100), .completed(10)])
        let res = scheduler.start { xs.timeout(.milliseconds(20), other: other, scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(235, 100), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(other.subscriptions == [Subscription(230, 240)])
    }

    @Test func timeoutErrorDisposalNeverAndOneTimer() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(215, TestError(1))])
        #expect(scheduler.start { xs.timeout(.milliseconds(20), scheduler: scheduler) }.events == [.next(210, 1), .error(215, TestError(1))])
        let s2 = TestScheduler()
        let other = s2.createColdObservable([.next(5, 100), .next(50, 200)])
        #expect(s2.start(disposed: 240) { Observable<Int>.never().timeout(.milliseconds(20), other: other, scheduler: s2) }.events
            == [.next(225, 100)])
        #expect(other.subscriptions == [Subscription(220, 240)])
        let s3 = TestScheduler()
        let subject = PublishSubject<Int>()
        let observer = s3.createObserver(Int.self)
        let d = subject.timeout(.milliseconds(20), scheduler: s3).subscribe(observer)
        for i in 0..<100 { subject.onNext(i) }
        #expect(s3.pendingCount == 1)
        d.dispose()
        #expect(s3.pendingCount == 0)
        // Past the deadline: the disposed timeout never fires.
        s3.advance(to: 100)
        #expect(observer.events == (0..<100).map { Recorded.next(0, $0) })
    }

    // MARK: observe(on:) and subscribe(on:)

    @Test func observeOnDeliversInOrderOnTheScheduler() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .error(230, TestError(1))])
        #expect(scheduler.start { xs.observe(on: scheduler) }.events == [.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .completed(220)])
        #expect(s2.start { ys.observe(on: s2) }.events == [.next(210, 1), .completed(220)])
        let s3 = TestScheduler()
        #expect(s3.start { Observable<Int>.never().observe(on: s3) }.events.isEmpty)
    }

    @Test func observeOnIsAsynchronousKeepsOneItemAndCancelsOnDisposal() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        let d = subject.observe(on: scheduler).subscribe(observer)
        for i in 0..<100 { subject.onNext(i) }
        subject.onError(TestError(1))
        #expect(observer.events.isEmpty)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: 0)
        #expect(observer.events.count == 101)
        #expect(observer.events.last == .error(0, TestError(1)))
        d.dispose()
        // The stopped subject sends its error at subscription; disposing cancels the pending delivery.
        let s2 = TestScheduler()
        let o2 = s2.createObserver(Int.self)
        let d2 = subject.observe(on: s2).subscribe(o2)
        #expect(s2.pendingCount == 1)
        d2.dispose()
        s2.run()
        #expect(o2.events.isEmpty)
    }

    @Test func subscribeOnSubscribesAndDisposesOnTheScheduler() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1)])
        let observer = scheduler.createObserver(Int.self)
        let d = xs.subscribe(on: scheduler).subscribe(observer)
        #expect(xs.subscriptions.isEmpty)
        scheduler.advance(by: 0)
        #expect(xs.subscriptions == [Subscription(0)])
        scheduler.advance(to: 20)
        d.dispose()
        #expect(xs.subscriptions == [Subscription(0)])
        scheduler.advance(by: 0)
        #expect(xs.subscriptions == [Subscription(0, 20)])
        #expect(observer.events == [.next(10, 1)])
    }

    @Test func subscribeOnDisposedBeforeSubscribing() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1)])
        let d = xs.subscribe(on: scheduler).subscribe(scheduler.createObserver(Int.self))
        d.dispose()
        scheduler.run()
        #expect(xs.subscriptions.isEmpty)
    }
}

/// Real-scheduler checks. The last clean-up runs on the queue right after the
/// callback the test waits for, so each test drains the queue before returning.
@Suite(.checksResourceLeaks) struct TimeRealSchedulerTests {
    @Test func observeOnADispatchQueue() async {
        let scheduler = DispatchQueueScheduler(label: "observe-on-test")
        let values: [Int] = await withCheckedContinuation { continuation in
            let box = UncheckedBox()
            box.subscription = Observable.of(1, 2, 3).observe(on: scheduler).toArray().subscribe(onNext: { values in
                continuation.resume(returning: values)
            })
        }
        #expect(values == [1, 2, 3])
        #expect(await drain(scheduler))
    }

    final class UncheckedBox: @unchecked Sendable {
        var subscription: (any Disposable)?
    }
}

@Suite(.checksResourceLeaks) struct DelayTests {
    @Test func delayShiftsElementsAndCompletionExactly() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(230)])
        #expect(scheduler.start { xs.delay(.milliseconds(15), scheduler: scheduler) }.events
            == [.next(225, 1), .next(235, 2), .completed(245)])
        // The source subscription ends when the source completes, as in RxSwift.
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func delayDoesNotDelayErrorsAndDropsWaitingElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        // 1 is due at 225 (before the error); 2 would be due at 235 (after it): dropped.
        #expect(scheduler.start { xs.delay(.milliseconds(15), scheduler: scheduler) }.events
            == [.next(225, 1), .error(230, TestError(1))])
    }

    @Test func delayDisposalCancelsAndOneTimerForManyElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        #expect(scheduler.start(disposed: 230) { xs.delay(.milliseconds(15), scheduler: scheduler) }.events == [.next(225, 1)])
        let s2 = TestScheduler()
        let subject = PublishSubject<Int>()
        let observer = s2.createObserver(Int.self)
        let d = subject.delay(.milliseconds(5), scheduler: s2).subscribe(observer)
        for i in 0..<100_000 { subject.onNext(i) }
        #expect(s2.pendingCount == 1)
        s2.advance(by: 5)
        #expect(observer.events.count == 100_000)
        d.dispose()
    }
}
