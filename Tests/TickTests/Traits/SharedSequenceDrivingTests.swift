import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct DriveIntoObserversAndRelaysTests {
    @Test func driveIntoOptionalObserversAndRelays() {
        let scheduler = TestScheduler()
        let optionalObserver = scheduler.createObserver(Int?.self)
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int?>.create(bufferSize: 2)
        let replayed = scheduler.createObserver(Int?.self)
        let subscriptions = SharingScheduler.mock(scheduler: scheduler) {
            let driver = scheduler.createHotObservable([.next(210, 1), .next(220, 2)]).asDriver(onErrorJustReturn: 0)
            return [driver.drive(optionalObserver), driver.drive(behavior), driver.drive(replay)]
        }
        scheduler.advance(to: 230)
        let late = replay.subscribe(replayed)
        scheduler.run()
        (subscriptions + [late]).forEach { $0.dispose() }
        #expect(optionalObserver.events == [.next(210, 1), .next(220, 2)])
        #expect(behavior.value == 2)
        #expect(replayed.events == [.next(230, 1), .next(230, 2)])
    }

    @Test func driveWithNothingOrATransformation() {
        let scheduler = TestScheduler()
        var seen: [Int] = []
        let (plain, transformed) = SharingScheduler.mock(scheduler: scheduler) {
            let driver = Driver.of(1, 2).do(onNext: { seen.append($0) })
            let plain = driver.drive()
            let transformed = driver.drive { (observable: Observable<Int>) in observable.subscribe(onNext: { seen.append($0 * 10) }) }
            return (plain, transformed)
        }
        scheduler.run()
        plain.dispose()
        transformed.dispose()
        // One shared subscription: `do` runs once per element, then each observer gets it.
        #expect(seen == [1, 10, 2, 20])
        let curried = Driver.just(1).drive({ (observable: Observable<Int>) in { (prefix: String) in prefix } }, curriedArgument: "x")
        #expect(curried == "x")
    }

    @Test func emitIntoOptionalObserversAndRelays() {
        let scheduler = TestScheduler()
        let optionalObserver = scheduler.createObserver(Int?.self)
        let publish = PublishRelay<Int?>()
        let published = scheduler.createObserver(Int?.self)
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int?>.create(bufferSize: 1)
        let watch = publish.subscribe(published)
        let subscriptions = SharingScheduler.mock(scheduler: scheduler) {
            let signal = scheduler.createHotObservable([.next(210, 1), .next(220, 2)]).asSignal(onErrorJustReturn: 0)
            return [signal.emit(to: optionalObserver), signal.emit(to: publish), signal.emit(to: behavior),
                    signal.emit(to: replay), signal.emit()]
        }
        scheduler.run()
        let replayed = scheduler.createObserver(Int?.self)
        let late = replay.subscribe(replayed)
        (subscriptions + [watch, late]).forEach { $0.dispose() }
        #expect(optionalObserver.events == [.next(210, 1), .next(220, 2)])
        #expect(published.events == [.next(210, 1), .next(220, 2)])
        #expect(behavior.value == 2)
        #expect(replayed.events.map(\.value) == [.next(2)])
    }
}
