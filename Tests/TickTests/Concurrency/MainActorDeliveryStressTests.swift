import Dispatch
import Foundation
import Testing
import Tick
import TickTesting

/// Closures given to `subscribe(onNext:…)` from an actor-isolated context run
/// on that actor (Docs/Concurrency.md, "Main-actor closures"), whatever
/// thread the events arrive on, in order, and nothing but `onDisposed` after
/// disposal. Waits are on `TestExpectation`s fulfilled by the code under test
/// (the timeout is a safety net, not a timing assertion).
@Suite(.checksResourceLeaks) struct MainActorDeliveryStressTests {
    /// A main-actor view model: its closures touch main-actor state.
    @MainActor final class Model {
        var values: [Int] = []
        var offMain = 0
        var completed = false
        var disposedOnMain: Bool?
        let done = TestExpectation()

        func bind(_ source: Observable<Int>) -> any Disposable {
            source.subscribe(
                onNext: { value in
                    if !MainQueueProbe.isCurrent { self.offMain += 1 }
                    self.values.append(value)
                },
                onCompleted: {
                    if !MainQueueProbe.isCurrent { self.offMain += 1 }
                    self.completed = true
                },
                onDisposed: {
                    self.disposedOnMain = MainQueueProbe.isCurrent
                    self.done.fulfill()
                })
        }
    }

    @Test @MainActor func eventsFromABackgroundQueueReachMainActorClosuresOnMainInOrder() async {
        let model = Model()
        let background = DispatchQueueScheduler(label: "MainActorDeliveryStressTests.background")
        let subscription = model.bind(Observable.from(Array(0..<2_000)).subscribe(on: background))
        #expect(await model.done.wait(timeout: .seconds(300)))
        #expect(model.values == Array(0..<2_000))
        #expect(model.completed)
        #expect(model.offMain == 0)
        #expect(model.disposedOnMain == true)
        subscription.dispose()
        #expect(await drain(background))
    }

    @Test @MainActor func eventsOnMainAreDeliveredAtOnceWhenNothingIsWaiting() {
        let model = Model()
        let subject = PublishSubject<Int>()
        let subscription = model.bind(subject.asObservable())
        subject.onNext(1)
        #expect(model.values == [1])  // synchronously: no hop
        subject.onCompleted()
        #expect(model.completed)
        #expect(model.disposedOnMain == true)
        subscription.dispose()
    }

    @Test @MainActor func anEventOnMainWaitsBehindEventsQueuedFromABackgroundThread() async {
        let model = Model()
        let subject = PublishSubject<Int>()
        let subscription = model.bind(subject.asObservable())
        subject.onNext(0)
        // 1...100 arrive on a background thread while the main actor (this
        // test) waits for it with `sync`: they are queued for main.
        DispatchQueue.global().sync {
            for value in 1...100 { subject.onNext(value) }
        }
        #expect(model.values == [0])
        // 101, sent on main, must wait behind them instead of jumping ahead.
        subject.onNext(101)
        #expect(model.values == [0])
        subject.onCompleted()
        #expect(await model.done.wait(timeout: .seconds(300)))
        #expect(model.values == Array(0...101))
        #expect(model.offMain == 0)
        subscription.dispose()
    }

    @Test @MainActor func afterDisposalFromABackgroundThreadOnlyOnDisposedRunsOnMain() async {
        let model = Model()
        let subject = PublishSubject<Int>()
        let subscription = model.bind(subject.asObservable())
        // `sync`: the main actor (this test) is blocked meanwhile, so the
        // queued element cannot be delivered before the disposal.
        DispatchQueue.global().sync {
            subject.onNext(1)  // queued for main
            subscription.dispose()
            subject.onNext(2)
        }
        #expect(model.values == [])
        #expect(await model.done.wait(timeout: .seconds(300)))
        #expect(model.values == [])
        #expect(model.disposedOnMain == true)
        #expect(!subject.hasObservers)
    }

    /// The same rule for the other closure entry points (traits, `bind`,
    /// `subscribe(with:)`): they pass the caller's isolation on.
    @Test @MainActor func singleCompletableMaybeBindAndSubscribeWithDeliverOnMain() async {
        let background = DispatchQueueScheduler(label: "MainActorDeliveryStressTests.single")
        let done = TestExpectation(count: 5)
        var onMain: [Bool] = []
        let single = Single.just(1).asObservable().subscribe(on: background).asSingle()
        let first = single.subscribe(onSuccess: { _ in
            onMain.append(MainQueueProbe.isCurrent)
            done.fulfill()
        })
        let second = Observable.just(2).subscribe(on: background).bind(onNext: { _ in
            onMain.append(MainQueueProbe.isCurrent)
            done.fulfill()
        })
        let owner = Model()
        let third = Observable.just(3).subscribe(on: background).subscribe(with: owner, onNext: { _, _ in
            onMain.append(MainQueueProbe.isCurrent)
            done.fulfill()
        })
        let fourth = Completable.empty().asObservable().subscribe(on: background).asCompletable()
            .subscribe(onCompleted: {
                onMain.append(MainQueueProbe.isCurrent)
                done.fulfill()
            })
        let fifth = Observable.just(5).subscribe(on: background).asMaybe().subscribe(onSuccess: { _ in
            onMain.append(MainQueueProbe.isCurrent)
            done.fulfill()
        })
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(onMain == [true, true, true, true, true])
        for subscription in [first, second, third, fourth, fifth] { subscription.dispose() }
        #expect(await drain(background))
    }

    /// An actor other than the main actor: its closures run in a task on it.
    actor Accumulator {
        var values: [Int] = []
        let done = TestExpectation()
        var subscription: (any Disposable)?

        func start(_ source: Observable<Int>) {
            subscription = source.subscribe(
                onNext: { value in
                    self.preconditionIsolated("a closure of an actor-isolated subscription ran off the actor")
                    self.values.append(value)
                },
                onCompleted: { self.done.fulfill() })
        }

        func stop() { subscription?.dispose() }
    }

    @Test func closuresIsolatedToAnotherActorRunOnItInOrder() async {
        let accumulator = Accumulator()
        let background = DispatchQueueScheduler(label: "MainActorDeliveryStressTests.actor")
        await accumulator.start(Observable.from(Array(0..<1_000)).subscribe(on: background))
        #expect(await accumulator.done.wait(timeout: .seconds(300)))
        #expect(await accumulator.values == Array(0..<1_000))
        await accumulator.stop()
        #expect(await drain(background))
    }

    /// A caller that is not isolated keeps the old behaviour: the closures run
    /// where the events arrive, synchronously.
    @Test func nonisolatedCallersAreCalledWhereTheEventsArrive() {
        let subject = PublishSubject<Int>()
        let values = Locked<[Int]>([])
        let subscription = subject.subscribe(onNext: { value in values.withLock { $0.append(value) } })
        subject.onNext(1)
        #expect(values.current == [1])
        subscription.dispose()
    }
}
