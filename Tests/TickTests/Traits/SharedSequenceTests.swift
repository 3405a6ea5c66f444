import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SharingSchedulerTests {
    @Test func aNewImmediateMainSchedulerPerConversionUnlessMocked() {
        let scheduler = TestScheduler()
        // RxCocoa's SharingScheduler.make is `{ MainScheduler() }`: a new one each time.
        #expect(SharingScheduler.make() is ImmediateMainScheduler)
        #expect(SharingScheduler.make() !== SharingScheduler.make())
        SharingScheduler.mock(scheduler: scheduler) {
            #expect(SharingScheduler.make() === scheduler)
            #expect(Driver<Int>.scheduler === scheduler)
        }
        #expect(SharingScheduler.make() is ImmediateMainScheduler)
        let made = SharingScheduler.mock(makeScheduler: { scheduler }) { SharingScheduler.make() }
        #expect(made === scheduler)
    }

    @Test func mockWorksAcrossAwait() async {
        let scheduler = TestScheduler()
        let made = await SharingScheduler.mock(scheduler: scheduler) { () async -> any Scheduler in
            // A suspension point to cross (the mock must survive it), not a
            // wait: the continuation is resumed at once.
            await withCheckedContinuation { $0.resume() }
            return SharingScheduler.make()
        }
        #expect(made === scheduler)
    }
}

@Suite(.checksResourceLeaks) struct DriverTests {
    @Test @MainActor func drivesSynchronouslyOnTheMainThreadWhenNothingIsQueued() {
        var driven: [Int] = []
        let subscription = Driver.just(1).drive(onNext: { driven.append($0) })
        #expect(driven == [1])  // before drive returned, as in RxCocoa
        var emitted: [Int] = []
        let relay = PublishRelay<Int>()
        let signal = relay.asSignal()
        let emission = signal.emit(onNext: { emitted.append($0) })
        relay.accept(2)
        #expect(emitted == [2])
        // A driver driven from inside another's delivery delivers at once too: each
        // conversion has a scheduler of its own.
        var nested: [String] = []
        let outer = Driver.just("outer").drive(onNext: { value in
            nested.append(value)
            _ = Driver.just("inner").drive(onNext: { nested.append($0) })
        })
        #expect(nested == ["outer", "inner"])
        subscription.dispose()
        emission.dispose()
        outer.dispose()
    }

    @Test func asDriverOnErrorJustReturn() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .error(220, TestError(1))])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
        }
        #expect(res.events == [.next(210, 1), .next(220, -1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func asDriverOnErrorDriveWithAndRecover() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.asDriver(onErrorDriveWith: Driver.just(9)) }
        }
        #expect(res.events == [.next(210, 1), .next(220, 9), .completed(220)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.error(230, TestError(5), Int.self)])
        var recovered: [TestError] = []
        let res2 = SharingScheduler.mock(scheduler: s2) {
            s2.start {
                ys.asDriver(onErrorRecover: { error in
                    if let error = error as? TestError { recovered.append(error) }
                    return Driver.of(1, 2)
                })
            }
        }
        #expect(res2.events == [.next(230, 1), .next(230, 2), .completed(230)])
        #expect(recovered == [TestError(5)])
    }

    @Test func driverIsSharedAndReplaysTheLatestElement() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(40, 3)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: 0).map { $0 * 10 }
            var subscriptions: [any Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(first)) }
            scheduler.scheduleAt(225) { subscriptions.append(driver.drive(second)) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.run()
        }
        #expect(first.events == [.next(210, 10), .next(220, 20), .next(240, 30)])
        #expect(second.events == [.next(225, 20), .next(240, 30)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func operatorsOnADriver() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3), .completed(250)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start {
                xs.asDriver(onErrorJustReturn: 0)
                    .distinctUntilChanged()
                    .filter { $0 != 2 }
                    .startWith(0)
                    .scan(0, accumulator: +)
                    .compactMap { $0 > 0 ? "\($0)" : nil }
            }
        }
        #expect(res.events == [.next(210, "1"), .next(240, "4"), .completed(250)])
    }

    @Test func flatMapLatestOnADriver() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start(disposed: 280) {
                xs.asDriver(onErrorJustReturn: 0).flatMapLatest { value in
                    Driver<Int>.interval(scheduler.duration(15)).map { value * 100 + $0 }
                }
            }
        }
        #expect(res.events == [.next(225, 100), .next(245, 200), .next(260, 201), .next(275, 202)])
    }

    @Test func throttleDebounceAndDelayUseTheSharingScheduler() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let debounced = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { xs.asDriver(onErrorJustReturn: 0).debounce(scheduler.duration(10)) }
        }
        #expect(debounced.events == [.next(225, 2), .next(250, 3), .completed(300)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .completed(300)])
        let delayed = SharingScheduler.mock(scheduler: s2) {
            s2.start { ys.asDriver(onErrorJustReturn: 0).delay(s2.duration(5)) }
        }
        #expect(delayed.events == [.next(215, 1), .completed(305)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let throttled = SharingScheduler.mock(scheduler: s3) {
            s3.start { zs.asDriver(onErrorJustReturn: 0).throttle(s3.duration(20), latest: false) }
        }
        #expect(throttled.events.first == .next(210, 1))
        #expect(throttled.events.contains(.next(240, 3)))
        #expect(!throttled.events.contains(.next(215, 2)))
    }

    @Test func creationOnTheSharingScheduler() {
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        let res = SharingScheduler.mock(scheduler: scheduler) { scheduler.start { Driver.just(1) } }
        #expect(res.events == [.next(201, 1), .completed(202)])
        let s2 = TestScheduler()
        let merged = SharingScheduler.mock(scheduler: s2) {
            s2.start { Driver.merge(Driver.of(1, 2), Driver.from([3])) }
        }
        #expect(merged.events.map(\.value.element) == [1, 3, 2, nil])
        let s3 = TestScheduler()
        #expect(SharingScheduler.mock(scheduler: s3) { s3.start { Driver<Int>.empty() } }.events == [.completed(200)])
        let s4 = TestScheduler()
        #expect(SharingScheduler.mock(scheduler: s4) { s4.start { Driver<Int>.never() } }.events.isEmpty)
        let s5 = TestScheduler()
        let timer = SharingScheduler.mock(scheduler: s5) { s5.start { Driver<Int>.timer(s5.duration(30)) } }
        #expect(timer.events == [.next(230, 0), .completed(230)])
    }

    @Test func combineLatestZipAndWithLatestFrom() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")])
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start {
                Driver.combineLatest(xs.asDriver(onErrorJustReturn: 0), ys.asDriver(onErrorJustReturn: "")) { "\($0)\($1)" }
            }
        }
        #expect(res.events == [.next(220, "1a"), .next(230, "2a"), .next(240, "2b")])
        let s2 = TestScheduler()
        let as2 = s2.createHotObservable([.next(210, 1), .next(230, 2)])
        let bs2 = s2.createHotObservable([.next(220, "a"), .next(240, "b")])
        let zipped = SharingScheduler.mock(scheduler: s2) {
            s2.start { Driver.zip(as2.asDriver(onErrorJustReturn: 0), bs2.asDriver(onErrorJustReturn: "")) { "\($0)\($1)" } }
        }
        #expect(zipped.events == [.next(220, "1a"), .next(240, "2b")])
        let s3 = TestScheduler()
        let as3 = s3.createHotObservable([.next(210, 1), .next(230, 2)])
        let bs3 = s3.createHotObservable([.next(220, "a")])
        let latest = SharingScheduler.mock(scheduler: s3) {
            s3.start { as3.asDriver(onErrorJustReturn: 0).withLatestFrom(bs3.asDriver(onErrorJustReturn: "")) }
        }
        #expect(latest.events == [.next(230, "a")])
    }

    @Test func driveToRelaysClosuresAndObjects() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let relay = BehaviorRelay(value: 0)
        let optionalRelay = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.createUnbounded()
        final class Owner { var seen: [Int] = [] }
        let owner = Owner()
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: 0)
            scheduler.scheduleAt(200) {
                _ = driver.drive(relay)
                _ = driver.drive(optionalRelay)
                _ = driver.drive(replay)
                _ = driver.drive(with: owner, onNext: { owner, value in owner.seen.append(value) })
                _ = driver.drive(
                    onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") },
                    onDisposed: { log.append("disposed") })
            }
            scheduler.run()
        }
        #expect(relay.value == 2)
        #expect(optionalRelay.value == 2)
        #expect(owner.seen == [1, 2])
        #expect(log == ["next 1", "next 2", "completed", "disposed"])
        var replayed: [Int] = []
        replay.subscribe(onNext: { replayed.append($0) }).dispose()
        #expect(replayed == [1, 2])
    }

    @Test func behaviorRelayAsDriver() {
        let scheduler = TestScheduler()
        let relay = BehaviorRelay(value: 1)
        scheduler.scheduleAt(210) { relay.accept(2) }
        let res = SharingScheduler.mock(scheduler: scheduler) { scheduler.start { relay.asDriver() } }
        #expect(res.events == [.next(200, 1), .next(210, 2)])
    }
}

@Suite(.checksResourceLeaks) struct SignalTests {
    @Test func signalIsSharedWithoutReplay() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(40, 3)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: 0)
            var subscriptions: [any Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(signal.emit(to: first)) }
            scheduler.scheduleAt(225) { subscriptions.append(signal.emit(to: second)) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.run()
        }
        #expect(first.events == [.next(210, 1), .next(220, 2), .next(240, 3)])
        #expect(second.events == [.next(240, 3)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func asSignalErrorForms() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let res = SharingScheduler.mock(scheduler: scheduler) { scheduler.start { xs.asSignal(onErrorJustReturn: -1) } }
        #expect(res.events == [.next(210, 1), .next(220, -1), .completed(220)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.error(220, TestError(1), Int.self)])
        let res2 = SharingScheduler.mock(scheduler: s2) {
            s2.start { ys.asSignal(onErrorSignalWith: Signal.just(5)) }
        }
        #expect(res2.events == [.next(220, 5), .completed(220)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.error(220, TestError(1), Int.self)])
        let res3 = SharingScheduler.mock(scheduler: s3) {
            s3.start { zs.asSignal(onErrorRecover: { _ in Signal.empty() }) }
        }
        #expect(res3.events == [.completed(220)])
    }

    @Test func emitToRelaysAndClosures() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        let relayObserver = scheduler.createObserver(Int.self)
        var log: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let signal = xs.asSignal(onErrorJustReturn: 0)
            scheduler.scheduleAt(150) { _ = publish.subscribe(relayObserver) }
            scheduler.scheduleAt(200) {
                _ = signal.emit(to: publish)
                _ = signal.emit(to: behavior)
                _ = signal.emit(to: replay)
                _ = signal.emit(onNext: { log.append("\($0)") }, onCompleted: { log.append("done") })
            }
            scheduler.run()
        }
        #expect(relayObserver.events == [.next(210, 1), .next(220, 2)])
        #expect(behavior.value == 2)
        #expect(log == ["1", "2", "done"])
    }

    @Test func publishRelayAsSignalAndDriverAsSignal() {
        let scheduler = TestScheduler()
        let relay = PublishRelay<Int>()
        scheduler.scheduleAt(210) { relay.accept(2) }
        let res = SharingScheduler.mock(scheduler: scheduler) { scheduler.start { relay.asSignal() } }
        #expect(res.events == [.next(210, 2)])
        let s2 = TestScheduler()
        let behavior = BehaviorRelay(value: 1)
        s2.scheduleAt(210) { behavior.accept(2) }
        let signal = SharingScheduler.mock(scheduler: s2) { s2.start { behavior.asDriver().asSignal() } }
        #expect(signal.events == [.next(200, 1), .next(210, 2)])
    }
}
