import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct InfallibleConversionTests {
    @Test func asInfallibleOnErrorJustReturn() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1)), .next(230, 3)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
        #expect(res.events == [.next(210, 1), .next(220, -1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func asInfallibleOnErrorFallbackTo() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: Infallible.of(7, 8)) }
        #expect(res.events == [.next(210, 1), .next(220, 7), .next(220, 8), .completed(220)])
    }

    @Test func asInfallibleOnErrorRecoverGetsTheError() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.error(220, TestError(4), Int.self)])
        let res = scheduler.start {
            xs.asInfallible(onErrorRecover: { error in .just((error as? TestError)?.code ?? -1) })
        }
        #expect(res.events == [.next(220, 4), .completed(220)])
    }

    @Test func relaysAndDriversAreInfallible() {
        let scheduler = TestScheduler()
        let behavior = BehaviorRelay(value: 0)
        let publish = PublishRelay<Int>()
        let fromBehavior = scheduler.createObserver(Int.self)
        let fromPublish = scheduler.createObserver(Int.self)
        let subscriptions = [
            behavior.asInfallible().bind(to: fromBehavior),
            publish.asInfallible().bind(to: fromPublish),
        ]
        scheduler.scheduleAt(210) { behavior.accept(1); publish.accept(2) }
        scheduler.run()
        subscriptions.forEach { $0.dispose() }
        #expect(fromBehavior.events == [.next(0, 0), .next(210, 1)])
        #expect(fromPublish.events == [.next(210, 2)])
    }
}

@Suite(.checksResourceLeaks) struct InfallibleCreationTests {
    @Test func createStopsDeliveringAfterDisposal() {
        var send: ((InfallibleEvent<Int>) -> Void)?
        let infallible = Infallible<Int>.create { observer in
            send = observer
            return Disposables.create()
        }
        var elements: [Int] = []
        let subscription = infallible.subscribe(onNext: { elements.append($0) })
        send?(.next(0))
        subscription.dispose()
        send?(.next(1))
        #expect(elements == [0])
    }

    @Test func createStopsDeliveringAfterCompletion() {
        var send: ((InfallibleEvent<Int>) -> Void)?
        let infallible = Infallible<Int>.create { observer in
            send = observer
            return Disposables.create()
        }
        var events: [InfallibleEvent<Int>] = []
        _ = infallible.subscribe { events.append($0) }
        send?(.next(0))
        send?(.completed)
        send?(.next(1))
        #expect(events == [.next(0), .completed])
    }

    @Test func justOfFromEmptyNeverDeferred() {
        let scheduler = TestScheduler()
        #expect(scheduler.start { Infallible.just(1) }.events == [.next(200, 1), .completed(200)])
        #expect(TestScheduler().start { Infallible.of(1, 2) }.events == [.next(200, 1), .next(200, 2), .completed(200)])
        #expect(TestScheduler().start { Infallible.from([3]) }.events == [.next(200, 3), .completed(200)])
        #expect(TestScheduler().start { Infallible<Int>.empty() }.events == [.completed(200)])
        #expect(TestScheduler().start { Infallible<Int>.never() }.events == [])
        var made = 0
        let deferred = Infallible.deferred { made += 1; return Infallible.just(made) }
        #expect(TestScheduler().start { deferred }.events == [.next(200, 1), .completed(200)])
        let timed = TestScheduler()
        #expect(timed.start { Infallible.just(5, scheduler: timed) }.events == [.next(200, 5), .completed(200)])
    }

    @Test func subscribeWithAnObjectStopsOnceItIsGone() {
        final class Owner {}
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
        var owner: Owner? = Owner()
        var seen: [Int] = []
        var completed = false
        _ = xs.asInfallible(onErrorJustReturn: -1)
            .subscribe(with: owner!, onNext: { _, value in seen.append(value) }, onCompleted: { _ in completed = true })
        scheduler.advance(to: 20)
        owner = nil
        scheduler.run()
        #expect(seen == [1])
        #expect(!completed)
        #expect(owner == nil)
    }
}

@Suite(.checksResourceLeaks) struct InfallibleOperatorTests {
    @Test func transformingOperatorsStayInfallible() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 2), .next(240, 3), .completed(250),
        ]).asInfallible(onErrorJustReturn: 0)
        let mapped: Infallible<Int> = xs.map { $0 * 10 }.filter { $0 > 10 }.distinctUntilChanged()
        let res = scheduler.start { mapped.scan(0, accumulator: +).startWith(-1) }
        #expect(res.events == [.next(200, -1), .next(220, 20), .next(240, 50), .completed(250)])
    }

    @Test func flatteningTakesInfallibleInners() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let inner = { (value: Int) in
            scheduler.createColdObservable([.next(5, value), .completed(5)]).asInfallible(onErrorJustReturn: 0)
        }
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).flatMap(inner) }
        #expect(res.events == [.next(215, 1), .next(225, 2), .completed(300)])
        let latest = TestScheduler().start { Infallible.of(1, 2).flatMapLatest { Infallible.just($0 * 2) } }
        #expect(latest.events == [.next(200, 2), .next(200, 4), .completed(200)])
        let concatenated = TestScheduler().start { Infallible.of(1, 2).concatMap { Infallible.of($0, $0) } }
        #expect(concatenated.events == [.next(200, 1), .next(200, 1), .next(200, 2), .next(200, 2), .completed(200)])
    }

    @Test func combiningOperators() {
        let a = Infallible.of(1, 2)
        let b = Infallible.just(10)
        #expect(TestScheduler().start { Infallible.zip(a, b) { $0 + $1 } }.events == [.next(200, 11), .completed(200)])
        // `of` emits on the trampoline, after `just` (synchronous) has: b's
        // 10 comes first, as in RxSwift.
        let latest: Infallible<(Int, Int)> = Infallible.combineLatest(a, b)
        #expect(TestScheduler().start { latest.map { $0 + $1 } }.events
            == [.next(200, 11), .next(200, 12), .completed(200)])
        let arrays = TestScheduler().start { Infallible.combineLatest([a, b]) }
        #expect(arrays.events == [.next(200, [1, 10]), .next(200, [2, 10]), .completed(200)])
        let merged = TestScheduler().start { Infallible.merge([a, b]) }
        #expect(merged.events == [.next(200, 10), .next(200, 1), .next(200, 2), .completed(200)])
        let concatenated = TestScheduler().start { Infallible.concat(b, a) }
        #expect(concatenated.events == [.next(200, 10), .next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test func mergeOfACollectionMergesRatherThanConcatenates() {
        let scheduler = TestScheduler()
        let slow = scheduler.createColdObservable([.next(20, 1), .completed(20)]).asInfallible(onErrorJustReturn: 0)
        let fast = scheduler.createColdObservable([.next(10, 2), .completed(10)]).asInfallible(onErrorJustReturn: 0)
        let res = scheduler.start { Infallible.merge([slow, fast]) }
        #expect(res.events == [.next(210, 2), .next(220, 1), .completed(220)])
    }

    @Test func takeAndSkipUntilAnInfallible() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3)])
        let stop = PublishRelay<Void>()
        scheduler.scheduleAt(240) { stop.accept(()) }
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).take(until: stop) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
    }
}
