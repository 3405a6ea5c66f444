import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct FlatMapTests {
    /// Outer: 10 at 210, 20 at 240, completes at 300. Inner for x: x at +10, x+1 at +50, completes at +60.
    struct Fixture {
        let scheduler = TestScheduler()
        let xs: HotObservable<Int>
        let ys1: ColdObservable<Int>
        let ys2: ColdObservable<Int>

        init(outerEnd: Recorded<Event<Int>> = .completed(300), ys2End: Recorded<Event<Int>> = .completed(60)) {
            xs = scheduler.createHotObservable([.next(150, 1), .next(210, 10), .next(240, 20), outerEnd])
            ys1 = scheduler.createColdObservable([.next(10, 10), .next(50, 11), .completed(60)])
            ys2 = scheduler.createColdObservable([.next(10, 20), .next(50, 21), ys2End])
        }

        func inner(_ x: Int) -> ColdObservable<Int> { x == 10 ? ys1 : ys2 }
    }

    @Test func flatMapMergesInnerSequences() {
        let f = Fixture()
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(250, 20), .next(260, 11), .next(290, 21), .completed(300)])
        #expect(f.xs.subscriptions == [Subscription(200, 300)])
        #expect(f.ys1.subscriptions == [Subscription(210, 270)])
        #expect(f.ys2.subscriptions == [Subscription(240, 300)])
    }

    @Test func flatMapWaitsForInnerAfterOuterCompleted() {
        let f = Fixture(outerEnd: .completed(245))
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        #expect(res.events.last == .completed(300))
        #expect(f.xs.subscriptions == [Subscription(200, 245)])
    }

    @Test func flatMapInnerErrorEndsEverything() {
        let f = Fixture(ys2End: .error(30, TestError(1)))
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(250, 20), .next(260, 11), .error(270, TestError(1))])
        #expect(f.xs.subscriptions == [Subscription(200, 270)])
        #expect(f.ys1.subscriptions == [Subscription(210, 270)])
        #expect(f.ys2.subscriptions == [Subscription(240, 270)])
    }

    @Test func flatMapOuterError() {
        let f = Fixture(outerEnd: .error(255, TestError(2)))
        let res = f.scheduler.start { f.xs.flatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(250, 20), .error(255, TestError(2))])
        #expect(f.ys1.subscriptions == [Subscription(210, 255)])
        #expect(f.ys2.subscriptions == [Subscription(240, 255)])
    }

    @Test func flatMapSelectorThrows() {
        let f = Fixture()
        let res = f.scheduler.start {
            f.xs.flatMap { x -> ColdObservable<Int> in
                if x == 20 { throw TestError(3) }
                return f.inner(x)
            }
        }
        #expect(res.events == [.next(220, 10), .error(240, TestError(3))])
        #expect(f.ys1.subscriptions == [Subscription(210, 240)])
    }

    @Test func flatMapDisposedMidStream() {
        let f = Fixture()
        let res = f.scheduler.start(disposed: 255) { f.xs.flatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(250, 20)])
        #expect(f.xs.subscriptions == [Subscription(200, 255)])
        #expect(f.ys1.subscriptions == [Subscription(210, 255)])
        #expect(f.ys2.subscriptions == [Subscription(240, 255)])
    }

    @Test func flatMapEmptyAndNever() {
        let empty = TestScheduler().start { Observable<Int>.empty().flatMap { Observable.just($0) } }
        #expect(empty.events == [.completed(200)])
        let never = TestScheduler().start { Observable<Int>.never().flatMap { Observable.just($0) } }
        #expect(never.events.isEmpty)
        let innerNever = TestScheduler().start { Observable.just(1).flatMap { _ in Observable<Int>.never() } }
        #expect(innerNever.events.isEmpty)
    }

    @Test func flatMapLatestSwitches() {
        let f = Fixture()
        let res = f.scheduler.start { f.xs.flatMapLatest { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(250, 20), .next(290, 21), .completed(300)])
        #expect(f.ys1.subscriptions == [Subscription(210, 240)])
        #expect(f.ys2.subscriptions == [Subscription(240, 300)])
        #expect(f.xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func flatMapLatestCompletesAfterLatestInner() {
        let f = Fixture(outerEnd: .completed(245))
        let res = f.scheduler.start { f.xs.flatMapLatest { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(250, 20), .next(290, 21), .completed(300)])
        #expect(f.xs.subscriptions == [Subscription(200, 245)])
    }

    @Test func flatMapLatestErrorAndDisposal() {
        let f = Fixture(ys2End: .error(20, TestError(4)))
        let res = f.scheduler.start { f.xs.flatMapLatest { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(250, 20), .error(260, TestError(4))])
        let g = Fixture()
        let disposed = g.scheduler.start(disposed: 230) { g.xs.flatMapLatest { g.inner($0) } }
        #expect(disposed.events == [.next(220, 10)])
        #expect(g.ys1.subscriptions == [Subscription(210, 230)])
        #expect(g.ys2.subscriptions.isEmpty)
    }

    @Test func switchLatestOfObservables() {
        let f = Fixture()
        let res = f.scheduler.start { f.xs.map { f.inner($0).asObservable() }.switchLatest() }
        #expect(res.events == [.next(220, 10), .next(250, 20), .next(290, 21), .completed(300)])
    }

    @Test func flatMapFirstDropsWhileActive() {
        let f = Fixture()
        var calls: [Int] = []
        let res = f.scheduler.start {
            f.xs.flatMapFirst { x -> ColdObservable<Int> in
                calls.append(x)
                return f.inner(x)
            }
        }
        #expect(res.events == [.next(220, 10), .next(260, 11), .completed(300)])
        #expect(calls == [10])
        #expect(f.ys2.subscriptions.isEmpty)
    }

    @Test func flatMapFirstAcceptsAfterInnerCompleted() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(270, 2), .next(275, 3), .completed(400)])
        let res = scheduler.start {
            xs.flatMapFirst { x in scheduler.createColdObservable([.next(10, x), .completed(60)]) }
        }
        // The hot events were scheduled when the observable was created, so 2 arrives at 270 before
        // the inner of 1 completes at 270 (scheduled at 210): 2 is dropped, 3 is taken.
        #expect(res.events == [.next(220, 1), .next(285, 3), .completed(400)])
    }

    @Test func concatMapQueuesInnerSequences() {
        let f = Fixture()
        let res = f.scheduler.start { f.xs.concatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(260, 11), .next(280, 20), .next(320, 21), .completed(330)])
        #expect(f.ys1.subscriptions == [Subscription(210, 270)])
        #expect(f.ys2.subscriptions == [Subscription(270, 330)])
        #expect(f.xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func concatMapDisposalBeforeQueuedInnerStarts() {
        let f = Fixture()
        let res = f.scheduler.start(disposed: 265) { f.xs.concatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .next(260, 11)])
        #expect(f.ys2.subscriptions.isEmpty)
    }

    @Test func concatMapErrorInQueuedOuter() {
        let f = Fixture(outerEnd: .error(250, TestError(5)))
        let res = f.scheduler.start { f.xs.concatMap { f.inner($0) } }
        #expect(res.events == [.next(220, 10), .error(250, TestError(5))])
        #expect(f.ys2.subscriptions.isEmpty)
    }

    @Test func flatMapOfSynchronousSources() {
        let observer = TestScheduler().createObserver(Int.self)
        let d = Observable.of(1, 2, 3).flatMap { Observable.of($0, $0 * 10) }.subscribe(observer)
        d.dispose()
        #expect(observer.events.map(\.value) == [.next(1), .next(10), .next(2), .next(20), .next(3), .next(30), .completed])
    }

    @Test func reentrantSubjectFeedingItself() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let d = subject.flatMap { Observable.just($0) }.subscribe(onNext: { value in
            received.append(value)
            if value < 3 { subject.onNext(value + 1) }
        })
        subject.onNext(1)
        #expect(received == [1, 2, 3])
        d.dispose()
        #expect(!subject.hasObservers)
    }

    @Test func disposalFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = subject.flatMap { Observable.of($0, $0 + 100) }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        #expect(received == [1])
        #expect(!subject.hasObservers)
    }
}
