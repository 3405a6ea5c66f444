import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct MaybeTests {
    @Test func asMaybeOfOneEmptyAndTwo() {
        let scheduler = TestScheduler()
        let one = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        #expect(scheduler.start { one.asMaybe() }.events == [.next(250, 1), .completed(250)])
        let s2 = TestScheduler()
        let empty = s2.createHotObservable([.completed(250, Int.self)])
        #expect(s2.start { empty.asMaybe() }.events == [.completed(250)])
        let s3 = TestScheduler()
        let two = s3.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        #expect(s3.start { two.asMaybe() }.events == [.error(220, TickError.moreThanOneElement)])
        #expect(two.subscriptions == [Subscription(200, 220)])
    }

    @Test func createJustEmptyErrorNever() {
        let maybe = Maybe<Int>.create { observer in
            observer(.completed)
            observer(.success(1))
            return Disposables.create()
        }
        #expect(TestScheduler().start { maybe }.events == [.completed(200)])
        #expect(TestScheduler().start { Maybe.just(2) }.events == [.next(200, 2), .completed(200)])
        #expect(TestScheduler().start { Maybe<Int>.empty() }.events == [.completed(200)])
        #expect(TestScheduler().start { Maybe<Int>.error(TestError(1)) }.events == [.error(200, TestError(1))])
        #expect(TestScheduler().start { Maybe<Int>.never() }.events.isEmpty)
        let scheduler = TestScheduler()
        #expect(scheduler.start { Maybe.just(3, scheduler: scheduler) }.events == [.next(200, 3), .completed(200)])
    }

    @Test func subscribeCallsOnCompletedOnlyWhenEmpty() {
        var log: [String] = []
        _ = Maybe.just(1).subscribe(
            onSuccess: { log.append("success \($0)") }, onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        _ = Maybe<Int>.empty().subscribe(
            onSuccess: { log.append("success \($0)") }, onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        _ = Maybe<Int>.error(TestError(1)).subscribe { (event: MaybeEvent<Int>) in
            switch event {
            case .success: log.append("event success")
            case .error(let error): log.append("event \(error)")
            case .completed: log.append("event completed")
            }
        }
        #expect(log == ["success 1", "disposed", "completed", "disposed", "event TestError(1)"])
    }

    @Test func ifEmptyTurnsAMaybeIntoASingle() {
        let scheduler = TestScheduler()
        let empty = scheduler.createHotObservable([.completed(250, Int.self)])
        let single: Single<Int> = empty.asMaybe().ifEmpty(default: 5)
        #expect(scheduler.start { single }.events == [.next(250, 5), .completed(250)])
        let switched: Single<Int> = Maybe<Int>.empty().ifEmpty(switchTo: Single.just(6))
        #expect(TestScheduler().start { switched }.events == [.next(200, 6), .completed(200)])
        let maybe: Maybe<Int> = Maybe<Int>.just(1).ifEmpty(switchTo: Maybe.just(6))
        #expect(TestScheduler().start { maybe }.events == [.next(200, 1), .completed(200)])
    }

    @Test func operatorsKeepTheTrait() {
        let mapped: Maybe<String> = Maybe.just(2).map { "\($0)" }
        #expect(TestScheduler().start { mapped }.events == [.next(200, "2"), .completed(200)])
        let filtered: Maybe<Int> = Maybe.just(2).filter { $0 > 2 }
        #expect(TestScheduler().start { filtered }.events == [.completed(200)])
        let flat: Maybe<Int> = Maybe.just(2).flatMap { _ in Maybe<Int>.empty() }
        #expect(TestScheduler().start { flat }.events == [.completed(200)])
        let caught: Maybe<Int> = Maybe<Int>.error(TestError(1)).catch { _ in .empty() }
        #expect(TestScheduler().start { caught }.events == [.completed(200)])
        #expect(TestScheduler().start { Maybe<Int>.error(TestError(1)).catchAndReturn(4) }.events
            == [.next(200, 4), .completed(200)])
        var seen: [Int] = []
        #expect(TestScheduler().start { Maybe.just(2).do(onNext: { seen.append($0) }).asCompletable() }.events
            == [.completed(200)])
        #expect(seen == [2])
    }
}

@Suite(.checksResourceLeaks) struct CompletableTests {
    @Test func asCompletableFromIgnoreElements() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        #expect(scheduler.start { xs.ignoreElements().asCompletable() }.events == [.completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .error(250, TestError(2))])
        #expect(s2.start { ys.ignoreElements().asCompletable() }.events == [.error(250, TestError(2))])
    }

    @Test func createAndSubscribe() {
        var log: [String] = []
        let completable = Completable.create { observer in
            observer(.completed)
            observer(.error(TestError(1)))
            return Disposables.create()
        }
        _ = completable.subscribe(
            onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") },
            onDisposed: { log.append("disposed") })
        _ = Completable.error(TestError(2)).subscribe { (event: CompletableEvent) in
            switch event {
            case .completed: log.append("event completed")
            case .error(let error): log.append("event \(error)")
            }
        }
        #expect(log == ["completed", "disposed", "event TestError(2)"])
        #expect(TestScheduler().start { Completable.empty() }.events == [.completed(200)])
        #expect(TestScheduler().start { Completable.never() }.events.isEmpty)
    }

    @Test func andThenLetsGoOfTheFirstChainOnceItCompletes() {
        final class Token: Sendable {}
        for fails in [false, true] {
            let scheduler = TestScheduler()
            let first = scheduler.createHotObservable([
                fails ? .error(210, TestError(1)) : .completed(210, Never.self),
            ])
            var token: Token? = Token()
            weak let weakToken = token
            var completable: Completable? = first.asCompletable().do(onCompleted: { [token] in _ = token })
            let subscription = completable!.andThen(Completable.never()).subscribe()
            scheduler.advance(to: 300)
            token = nil
            completable = nil
            // The first chain (holding the token in its closure) ended at 210 and is let go of.
            #expect(weakToken == nil)
            subscription.dispose()
        }
    }

    @Test func asCompletableOfATestObservableEnforcesTheGrammar() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.completed(250, Never.self), .error(260, TestError(1))])
        let res = scheduler.start { xs.asCompletable() }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func andThenSubscribesTheNextAfterCompletion() {
        let scheduler = TestScheduler()
        let first = scheduler.createColdObservable([.completed(20, Never.self)])
        let second = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { first.asCompletable().andThen(second.asSingle()) }
        #expect(res.events == [.next(230, 1), .completed(230)])
        #expect(first.subscriptions == [Subscription(200, 220)])
        #expect(second.subscriptions == [Subscription(220, 230)])
        #expect(TestScheduler().start { Completable.error(TestError(1)).andThen(Single.just(1)) }.events
            == [.error(200, TestError(1))])
        #expect(TestScheduler().start { Completable.empty().andThen(Maybe<Int>.empty()) }.events == [.completed(200)])
        #expect(TestScheduler().start { Completable.empty().andThen(Completable.empty()) }.events == [.completed(200)])
        #expect(TestScheduler().start { Completable.empty().andThen(Observable.of(1, 2)) }.events
            == [.next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test func zipConcatMergeAndCatch() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.completed(10, Never.self)])
        let b = scheduler.createColdObservable([.completed(30, Never.self)])
        #expect(scheduler.start { Completable.zip(a.asCompletable(), b.asCompletable()) }.events == [.completed(230)])
        let s2 = TestScheduler()
        let c = s2.createColdObservable([.completed(10, Never.self)])
        let d = s2.createColdObservable([.completed(30, Never.self)])
        #expect(s2.start { Completable.concat(c.asCompletable(), d.asCompletable()) }.events == [.completed(240)])
        #expect(TestScheduler().start { Completable.merge(.empty(), .empty()) }.events == [.completed(200)])
        #expect(TestScheduler().start { Completable.zip([Completable]()) }.events == [.completed(200)])
        #expect(TestScheduler().start { Completable.error(TestError(1)).catch { _ in .empty() } }.events == [.completed(200)])
        var log: [String] = []
        _ = Completable.empty().do(onCompleted: { log.append("completed") }, onDispose: { log.append("dispose") })
            .subscribe()
        #expect(log == ["completed", "dispose"])
    }
}
