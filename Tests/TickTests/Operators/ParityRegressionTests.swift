import Testing
import Tick
import TickTesting

/// Regression tests for the eight behaviours of issue 12 where Tick differed
/// from RxSwift by mistake. Each one failed before the fix; times in frames.
@Suite(.checksResourceLeaks) struct ParityRegressionTests {
    // MARK: 1. delay

    @Test func delayDisposesTheSourceWhenItCompletesNotWhenTheCompletionGoesOut() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(250, 2), .completed(300)])
        let res = scheduler.start { xs.delay(.milliseconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(350, 2), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    // MARK: 2. throttle

    @Test func throttleDisposesTheSourceWhenItCompletesWhileAnElementWaits() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(300)])
        let res = scheduler.start { xs.throttle(.milliseconds(200), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .next(410, 2), .completed(410)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    // MARK: 3. sample

    @Test func sampleEmitsTheDefaultValueWhenTheSamplerCompletes() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let sampler = scheduler.createHotObservable([.next(220, "tick"), .completed(300)])
        let res = scheduler.start { xs.sample(sampler, defaultValue: 0) }
        #expect(res.events == [.next(220, 1), .next(300, 0), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(sampler.subscriptions == [Subscription(200, 300)])
    }

    @Test func sampleDoesNotCompleteWhenTheSamplerCompletesBeforeTheSource() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(400)])
        let sampler = scheduler.createHotObservable([.next(220, "tick"), .completed(300)])
        let res = scheduler.start { xs.sample(sampler) }
        // 300: the sampler's completion is a last sample (2); the source has not completed, so
        // neither does the result (RxSwift's rule), and it never does after that.
        #expect(res.events == [.next(220, 1), .next(300, 2)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(sampler.subscriptions == [Subscription(200, 300)])
    }

    // MARK: 4. concat of a sequence

    @Test func concatPullsEachSourceOnlyWhenThePreviousOneCompleted() {
        let scheduler = TestScheduler()
        let pulls = Locked<[TestTime]>([])
        let sources = (0..<3).lazy.map { index -> Observable<Int> in
            pulls.withLock { $0.append(scheduler.clock) }
            return scheduler.createColdObservable([.next(10, index), .completed(20)]).asObservable()
        }
        let res = scheduler.start { Observable.concat(sources) }
        #expect(res.events == [.next(210, 0), .next(230, 1), .next(250, 2), .completed(260)])
        #expect(pulls.current == [200, 220, 240])
    }

    /// A lazily generated, recursively defined sequence: each level is `just`
    /// followed by the next level, built only when it is reached.
    static func generated(from start: Int) -> Observable<Int> {
        Observable.concat([0, 1].lazy.map { $0 == 0 ? Observable.just(start) : generated(from: start + 1) })
    }

    @Test func concatOfALazyRecursiveSequenceRuns100Deep() {
        let scheduler = TestScheduler()
        let res = scheduler.start { Self.generated(from: 0).take(100) }
        #expect(res.events == (0..<100).map { .next(200, $0) } + [.completed(200)])
    }

    @Test func mergeAcceptsAnySequence() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(240)])
        let res = scheduler.start { Observable.merge(AnySequence([xs.asObservable(), ys.asObservable()])) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(240)])
    }

    // MARK: 5. retry(when:)

    @Test func retryWhenIgnoresTheTriggerWhileNoErrorIsPending() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(100)])
        let trigger = scheduler.createHotObservable([.next(215, "again")])
        let res = scheduler.start { xs.retry(when: { (_: Observable<any Error>) in trigger }) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func retryWhenCompletesWithTheSourceWhenTheTriggerCompletedFirst() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let trigger = scheduler.createHotObservable([.completed(215, String.self)])
        let res = scheduler.start { xs.retry(when: { (_: Observable<any Error>) in trigger }) }
        #expect(res.events == [.next(210, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func retryWhenAnEarlierTriggerCompletionEndsTheResultAtTheNextError() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        // Two retries; the trigger completes right after the second, so the third error completes.
        let res = scheduler.start { xs.retry(when: { errors in errors.take(2) }) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .next(250, 1), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    // MARK: 6. share/refCount re-subscription from a terminal handler

    /// Subscribes `first` at 200; when it completes or fails, subscribes
    /// `again` from inside that handler; subscribes `later` at 400.
    static func resubscribeFromTerminalHandler<O: ObservableType>(
        _ shared: O, on scheduler: TestScheduler
    ) -> (first: TestableObserver<O.Element>, again: TestableObserver<O.Element>, later: TestableObserver<O.Element>) {
        let first = scheduler.createObserver(O.Element.self)
        let again = scheduler.createObserver(O.Element.self)
        let later = scheduler.createObserver(O.Element.self)
        let bag = Locked<[any Disposable]>([])
        scheduler.scheduleAt(200) {
            let subscription = shared.subscribe { event in
                first.on(event)
                if event.isStopEvent {
                    let inner = shared.subscribe(again)
                    bag.withLock { $0.append(inner) }
                }
            }
            bag.withLock { $0.append(subscription) }
        }
        scheduler.scheduleAt(400) {
            let subscription = shared.subscribe(later)
            bag.withLock { $0.append(subscription) }
        }
        scheduler.scheduleAt(1000) { for disposable in bag.current { disposable.dispose() } }
        scheduler.run()
        return (first, again, later)
    }

    @Test func shareLetsAnObserverSubscribeAgainFromItsCompletionHandler() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let (first, again, later) = Self.resubscribeFromTerminalHandler(xs.share(), on: scheduler)
        #expect(first.events == [.next(210, 1), .completed(220)])
        #expect(again.events == [.next(230, 1), .completed(240)])
        #expect(later.events == [.next(410, 1), .completed(420)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(400, 420)])
    }

    @Test func refCountLetsAnObserverSubscribeAgainFromItsErrorHandler() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let (first, again, later) = Self.resubscribeFromTerminalHandler(xs.publish().refCount(), on: scheduler)
        #expect(first.events == [.next(210, 1), .error(220, TestError(1))])
        #expect(again.events == [.next(230, 1), .error(240, TestError(1))])
        #expect(later.events == [.next(410, 1), .error(420, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(400, 420)])
    }

    // MARK: 7. a fresh subject per connection

    @Test func publishRefCountRunsTheSourceAgainAfterItCompleted() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.publish().refCount()
        let o1 = SharingTests.observe(shared, on: scheduler, from: 200, to: 1000)
        let o2 = SharingTests.observe(shared, on: scheduler, from: 300, to: 1000)
        scheduler.run()
        #expect(o1.events == [.next(210, 1), .completed(220)])
        #expect(o2.events == [.next(310, 1), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }

    @Test func publishObserversOfAnEarlierConnectionDoNotSeeTheNextOne() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        let connectable = xs.publish()
        let old = SharingTests.observe(connectable, on: scheduler, from: 200, to: 1000)
        let new = SharingTests.observe(connectable, on: scheduler, from: 245, to: 1000)
        let connection = Locked<(any Disposable)?>(nil)
        scheduler.scheduleAt(205) { connection.withLock { $0 = connectable.connect() } }
        scheduler.scheduleAt(240) { connection.withLock { $0?.dispose() } }
        scheduler.scheduleAt(250) { connection.withLock { $0 = connectable.connect() } }
        scheduler.run()
        #expect(old.events == [.next(210, 1), .next(230, 2)])
        #expect(new.events == [.next(260, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(205, 240), Subscription(250, 300)])
    }

    @Test func replayDoesNotReplayAnEarlierConnectionsElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(260, 3), .completed(300)])
        let connectable = xs.replay(1)
        let old = SharingTests.observe(connectable, on: scheduler, from: 200, to: 1000)
        let new = SharingTests.observe(connectable, on: scheduler, from: 245, to: 1000)
        let all = xs.replayAll()
        let newAll = SharingTests.observe(all, on: scheduler, from: 245, to: 1000)
        let connection = Locked<[any Disposable]>([])
        scheduler.scheduleAt(205) { connection.withLock { $0 = [connectable.connect(), all.connect()] } }
        scheduler.scheduleAt(240) { connection.withLock { $0.forEach { $0.dispose() } } }
        scheduler.scheduleAt(250) { connection.withLock { $0 = [connectable.connect(), all.connect()] } }
        scheduler.run()
        #expect(old.events == [.next(210, 1), .next(230, 2)])
        #expect(new.events == [.next(260, 3), .completed(300)])
        #expect(newAll.events == [.next(260, 3), .completed(300)])
    }

    // MARK: 8. do(onDispose:) runs after the source subscription was disposed

    @Test func doOnDisposeRunsAfterTheSourceWasDisposed() {
        for terminal in [Recorded<Event<Int>>.completed(300), .error(300, TestError(1))] {
            let scheduler = TestScheduler()
            let xs = scheduler.createHotObservable([.next(210, 1), terminal])
            let seen = Locked<[Subscription]?>(nil)
            _ = scheduler.start {
                xs.map { $0 * 2 }.do(onDispose: { seen.withLock { $0 = xs.subscriptions } })
            }
            #expect(seen.current == [Subscription(200, 300)])
        }
        // And on disposal from downstream.
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let seen = Locked<[Subscription]?>(nil)
        _ = scheduler.start(disposed: 500) {
            xs.map { $0 * 2 }.do(onDispose: { seen.withLock { $0 = xs.subscriptions } })
        }
        #expect(seen.current == [Subscription(200, 500)])
    }

    @Test func aChainReleasesFromTheSourceDownOnATerminalEvent() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let log = Locked<[String]>([])
        _ = scheduler.start {
            xs.do(onDispose: { log.withLock { $0.append("inner") } })
                .filter { _ in true }
                .do(onDispose: { log.withLock { $0.append("outer") } })
        }
        #expect(log.current == ["inner", "outer"])
    }

    // MARK: Deviations dropped: now as in RxSwift

    @Test func groupByKeepsTheSourceWhileAGroupIsStillSubscribed() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
        let odd = scheduler.createObserver(Int.self)
        let groupSubscriptions = Locked<[any Disposable]>([])
        scheduler.scheduleAt(260) { for disposable in groupSubscriptions.current { disposable.dispose() } }
        let res = scheduler.start(disposed: 225) {
            xs.groupBy { $0 % 2 }.do(onNext: { group in
                guard group.key == 1 else { return }
                let subscription = group.subscribe(odd)
                groupSubscriptions.withLock { $0.append(subscription) }
            })
        }
        // The result was disposed at 225, but the odd group stays subscribed until 260, and the
        // source with it.
        #expect(res.events.map(\.time) == [210, 220])
        #expect(odd.events == [.next(210, 1), .next(230, 3)])
        #expect(xs.subscriptions == [Subscription(200, 260)])
    }

    @Test func groupByDisposesTheSourceWhenTheResultAndEveryGroupAreDisposed() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start(disposed: 225) { xs.groupBy { $0 % 2 } }
        #expect(res.events.count == 2)
        #expect(xs.subscriptions == [Subscription(200, 225)])
    }

    // MARK: A kept deviation

    @Test func groupByKeySelectorErrorDisposesTheSourceAtOnce() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let odd = scheduler.createObserver(Int.self)
        let groupSubscriptions = Locked<[any Disposable]>([])
        scheduler.scheduleAt(500) { for disposable in groupSubscriptions.current { disposable.dispose() } }
        let res = scheduler.start {
            xs.groupBy { value -> Int in
                if value == 2 { throw TestError(2) }
                return value % 2
            }.do(onNext: { group in
                let subscription = group.subscribe(odd)
                groupSubscriptions.withLock { $0.append(subscription) }
            })
        }
        // RxSwift would keep the source until the group subscription goes at 500.
        #expect(res.events.map(\.time) == [210, 220])
        #expect(odd.events == [.next(210, 1), .error(220, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }
}
