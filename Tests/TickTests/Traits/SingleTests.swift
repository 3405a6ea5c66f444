import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct AsSingleTests {
    @Test func asSingleSendsTheOnlyElementAtCompletion() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(250)])
        #expect(scheduler.start { xs.asSingle() }.events == [.next(250, 1), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func asSingleFailsOnEmptyWithNoElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(250)])
        #expect(scheduler.start { xs.asSingle() }.events == [.error(250, TickError.noElements)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func asSingleFailsAtTheSecondElementAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        #expect(scheduler.start { xs.asSingle() }.events == [.error(220, TickError.moreThanOneElement)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func asSinglePassesErrorsAndDisposal() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
        #expect(scheduler.start { xs.asSingle() }.events == [.error(230, TestError(1))])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .completed(250)])
        #expect(s2.start(disposed: 240) { ys.asSingle() }.events.isEmpty)
        #expect(ys.subscriptions == [Subscription(200, 240)])
    }

    @Test func asSingleOfOptionalElementKeepsANilElement() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, Int?.none), .completed(250)])
        #expect(scheduler.start { xs.asSingle() }.events == [.next(250, nil), .completed(250)])
    }
}

@Suite(.checksResourceLeaks) struct SingleCreationTests {
    @Test func createDeliversOneEventAndIgnoresTheRest() {
        let scheduler = TestScheduler()
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2))
            observer(.failure(TestError(1)))
            return Disposables.create()
        }
        #expect(scheduler.start { single }.events == [.next(200, 1), .completed(200)])
        let failing = Single<Int>.create { observer in
            observer(.failure(TestError(3)))
            return Disposables.create()
        }
        #expect(TestScheduler().start { failing }.events == [.error(200, TestError(3))])
    }

    @Test func createDisposesItsWorkOnDisposal() {
        let scheduler = TestScheduler()
        var disposedAt: TestTime?
        let single = Single<Int>.create { observer in
            let timer = scheduler.schedule(after: scheduler.duration(100)) { observer(.success(5)) }
            return Disposables.create {
                disposedAt = scheduler.clock
                timer.dispose()
            }
        }
        #expect(scheduler.start(disposed: 250) { single }.events.isEmpty)
        #expect(disposedAt == 250)
    }

    @Test func justErrorNever() {
        #expect(TestScheduler().start { Single.just(7) }.events == [.next(200, 7), .completed(200)])
        #expect(TestScheduler().start { Single<Int>.error(TestError(2)) }.events == [.error(200, TestError(2))])
        #expect(TestScheduler().start { Single<Int>.never() }.events.isEmpty)
    }

    @Test func justOnASchedulerMatchesRxTestWithProcessingDelay() {
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        #expect(scheduler.start { Single.just(42, scheduler: scheduler) }.events == [.next(201, 42), .completed(202)])
        let plain = TestScheduler()
        #expect(plain.start { Single.just(42, scheduler: plain) }.events == [.next(200, 42), .completed(200)])
    }

    @Test func deferredCallsTheFactoryPerSubscription() {
        var calls = 0
        let single = Single<Int>.deferred {
            calls += 1
            return .just(calls)
        }
        #expect(TestScheduler().start { single }.events == [.next(200, 1), .completed(200)])
        #expect(TestScheduler().start { single }.events == [.next(200, 2), .completed(200)])
    }
}

@Suite(.checksResourceLeaks) struct SingleSubscribeTests {
    @Test func subscribeOnSuccessThenOnDisposed() {
        var log: [String] = []
        _ = Single.just(3).subscribe(
            onSuccess: { log.append("success \($0)") }, onFailure: { log.append("failure \($0)") },
            onDisposed: { log.append("disposed") })
        _ = Single<Int>.error(TestError(1)).subscribe(
            onSuccess: { log.append("success \($0)") }, onFailure: { log.append("failure \($0)") },
            onDisposed: { log.append("disposed") })
        #expect(log == ["success 3", "disposed", "failure TestError(1)", "disposed"])
    }

    @Test func subscribeWithSingleEvents() {
        var results: [String] = []
        _ = Single.just(3).subscribe { (event: SingleEvent<Int>) in
            switch event {
            case .success(let value): results.append("success \(value)")
            case .failure(let error): results.append("failure \(error)")
            }
        }
        _ = Single<Int>.error(TestError(4)).subscribe { (event: SingleEvent<Int>) in
            if case .failure(let error) = event { results.append("failure \(error)") }
        }
        #expect(results == ["success 3", "failure TestError(4)"])
    }

    @Test func subscribeWithObjectPassesTheObject() {
        final class Owner { var seen: [Int] = [] }
        let owner = Owner()
        var disposedWith: Owner?
        _ = Single.just(1).subscribe(
            with: owner, onSuccess: { owner, value in owner.seen.append(value) }, onDisposed: { disposedWith = $0 })
        #expect(owner.seen == [1])
        #expect(disposedWith === owner)
    }

    @Test func subscribeWithObjectSkipsClosuresOnceTheObjectIsGone() {
        final class Owner {}
        let scheduler = TestScheduler()
        var calls = 0
        var owner: Owner? = Owner()
        let subscription = Single.just(1).delay(scheduler.duration(10), scheduler: scheduler)
            .subscribe(with: owner ?? Owner(), onSuccess: { _, _ in calls += 1 })
        owner = nil
        scheduler.advance(to: 20)
        #expect(calls == 0)
        #expect(owner == nil)
        subscription.dispose()
    }
}

@Suite(.checksResourceLeaks) struct SingleOperatorTests {
    @Test func mapAndFlatMap() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let inner = scheduler.createColdObservable([.next(20, "x"), .completed(20)])
        let res = scheduler.start {
            xs.asSingle().map { $0 * 10 }.flatMap { value in inner.asSingle().map { "\($0)\(value)" } }
        }
        #expect(res.events == [.next(230, "x20"), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
        #expect(inner.subscriptions == [Subscription(210, 230)])
    }

    @Test func mapThrowingFails() {
        let res = TestScheduler().start { Single.just(1).map { _ -> Int in throw TestError(9) } }
        #expect(res.events == [.error(200, TestError(9))])
    }

    @Test func filterAndCompactMapGiveMaybes() {
        let kept: Maybe<Int> = Single.just(4).filter { $0.isMultiple(of: 2) }
        let dropped: Maybe<Int> = Single.just(3).filter { $0.isMultiple(of: 2) }
        let compact: Maybe<String> = Single.just(5).compactMap { $0 > 4 ? "big" : nil }
        #expect(TestScheduler().start { kept }.events == [.next(200, 4), .completed(200)])
        #expect(TestScheduler().start { dropped }.events == [.completed(200)])
        #expect(TestScheduler().start { compact }.events == [.next(200, "big"), .completed(200)])
    }

    @Test func catchAndCatchAndReturn() {
        let scheduler = TestScheduler()
        let failing = scheduler.createColdObservable([.error(10, TestError(1), Int.self)])
        let res = scheduler.start { failing.asSingle().catch { _ in .just(8) } }
        #expect(res.events == [.next(210, 8), .completed(210)])
        let s2 = TestScheduler()
        #expect(s2.start { Single<Int>.error(TestError(1)).catchAndReturn(0) }.events == [.next(200, 0), .completed(200)])
    }

    @Test func doRunsSuccessHooksAroundDelivery() {
        var log: [String] = []
        let scheduler = TestScheduler()
        let observer = scheduler.createObserver(Int.self)
        let single = Single.just(1).do(
            onSuccess: { log.append("onSuccess \($0)") }, afterSuccess: { log.append("afterSuccess \($0)") },
            onSubscribe: { log.append("subscribe") }, onDispose: { log.append("dispose") })
        _ = single.subscribe(AnyObserver<Int> { event in
            log.append("deliver \(event)")
            observer.on(event)
        })
        #expect(log == ["subscribe", "onSuccess 1", "deliver next(1)", "afterSuccess 1", "deliver completed", "dispose"])
    }

    @Test func delayAndTimeoutAtTheDeadline() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        #expect(scheduler.start { xs.asSingle().delay(scheduler.duration(30), scheduler: scheduler) }.events
            == [.next(280, 1), .completed(280)])
        // The element at exactly the deadline is too late (Tick's timeout rule).
        let s2 = TestScheduler()
        let ys = s2.createColdObservable([.next(50, 1), .completed(50)])
        #expect(s2.start { ys.asSingle().timeout(s2.duration(50), scheduler: s2) }.events == [.error(250, TickError.timeout)])
        let s3 = TestScheduler()
        let zs = s3.createColdObservable([.next(49, 1), .completed(49)])
        #expect(s3.start { zs.asSingle().timeout(s3.duration(50), scheduler: s3) }.events == [.next(249, 1), .completed(249)])
        let s4 = TestScheduler()
        let ws = s4.createColdObservable([.next(51, 1), .completed(51)])
        #expect(s4.start { ws.asSingle().timeout(s4.duration(50), other: .just(0), scheduler: s4) }.events
            == [.next(250, 0), .completed(250)])
    }

    @Test func retryResubscribes() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.error(10, TestError(1), Int.self)])
        #expect(scheduler.start { xs.asSingle().retry(3) }.events == [.error(230, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    @Test func observableFlatMapAcceptsASingle() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.flatMap { Single.just($0 * 2) } }
        #expect(res.events == [.next(210, 2), .next(220, 4), .completed(230)])
    }

    @Test func conversionsToMaybeAndCompletable() {
        #expect(TestScheduler().start { Single.just(1).asMaybe() }.events == [.next(200, 1), .completed(200)])
        #expect(TestScheduler().start { Single.just(1).asCompletable() }.events == [.completed(200)])
        #expect(TestScheduler().start { Single.just(1).flatMapCompletable { _ in .empty() } }.events == [.completed(200)])
        #expect(TestScheduler().start { Single.just(1).flatMapMaybe { _ in Maybe<Int>.empty() } }.events == [.completed(200)])
    }
}
