import Testing
import Tick
import TickTesting

/// The events of the shared sequence `make` builds with a fresh
/// `TestScheduler` as the sharing scheduler, recorded from 200 to 1000.
private func record<Source: ObservableType>(
    _ make: (TestScheduler) -> Source
) -> [Recorded<Event<Source.Element>>] {
    let scheduler = TestScheduler()
    let source = SharingScheduler.mock(scheduler: scheduler) { make(scheduler) }
    return scheduler.start { source }.events
}

@Suite(.checksResourceLeaks) struct SharedSequenceCombiningTests {
    @Test func zipAndCombineLatestWithoutASelectorGiveTuples() {
        let zipped = record { _ in
            let pairs: Driver<(Int, String)> = Driver.zip(Driver.of(1, 2), Driver.of("a", "b"))
            return pairs.map { "\($0)\($1)" }
        }
        #expect(zipped == [.next(200, "1a"), .next(200, "2b"), .completed(200)])
        let combined = record { scheduler in
            let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2)]).asDriver(onErrorJustReturn: 0)
            let b = scheduler.createHotObservable([.next(220, "a")]).asDriver(onErrorJustReturn: "")
            let triples: Driver<(Int, String, Int)> = Driver.combineLatest(a, b, Driver.just(0))
            return triples.map { "\($0)\($1)\($2)" }
        }
        #expect(combined == [.next(220, "1a0"), .next(230, "2a0")])
    }

    @Test func zipAndCombineLatestOfCollections() {
        let sums = record { _ in Driver.zip([Driver.of(1, 2), Driver.of(10, 20)]) { $0.reduce(0, +) } }
        #expect(sums == [.next(200, 11), .next(200, 22), .completed(200)])
        let arrays = record { _ in Driver.zip([Driver.of(1, 2), Driver.of(10, 20)]) }
        #expect(arrays == [.next(200, [1, 10]), .next(200, [2, 20]), .completed(200)])
        let latest = record { scheduler in
            Driver.combineLatest([
                scheduler.createHotObservable([.next(210, 1), .next(230, 2)]).asDriver(onErrorJustReturn: 0),
                scheduler.createHotObservable([.next(220, 10)]).asDriver(onErrorJustReturn: 0),
            ])
        }
        #expect(latest == [.next(220, [1, 10]), .next(230, [2, 10])])
        let latestSums = record { _ in Driver.combineLatest([Driver.just(1), Driver.just(2)]) { $0.reduce(0, +) } }
        #expect(latestSums == [.next(200, 3), .completed(200)])
    }

    @Test func mergeAndConcatOfCollections() {
        let merged = record { scheduler in
            Driver.merge([
                scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)]).asDriver(onErrorJustReturn: 0),
                scheduler.createHotObservable([.next(220, 2), .completed(250)]).asDriver(onErrorJustReturn: 0),
            ])
        }
        #expect(merged == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let concatenated = record { scheduler in
            Driver.concat([
                scheduler.createColdObservable([.next(10, 1), .completed(20)]).asDriver(onErrorJustReturn: 0),
                scheduler.createColdObservable([.next(5, 2), .completed(5)]).asDriver(onErrorJustReturn: 0),
            ])
        }
        #expect(concatenated == [.next(210, 1), .next(225, 2), .completed(225)])
    }

    @Test func switchLatestAndMergeOfDrivers() {
        let switched = record { scheduler in
            let first = scheduler.createHotObservable([.next(220, 1), .next(240, 2)]).asDriver(onErrorJustReturn: 0)
            let second = scheduler.createHotObservable([.next(250, 3)]).asDriver(onErrorJustReturn: 0)
            return scheduler.createHotObservable([.next(210, first), .next(230, second)])
                .asDriver(onErrorJustReturn: .never()).switchLatest()
        }
        #expect(switched == [.next(220, 1), .next(250, 3)])
        let merged = record { scheduler in
            let first = scheduler.createHotObservable([.next(220, 1), .next(240, 2)]).asDriver(onErrorJustReturn: 0)
            let second = scheduler.createHotObservable([.next(250, 3)]).asDriver(onErrorJustReturn: 0)
            return scheduler.createHotObservable([.next(210, first), .next(230, second)])
                .asDriver(onErrorJustReturn: .never()).merge()
        }
        #expect(merged == [.next(220, 1), .next(240, 2), .next(250, 3)])
    }

    @Test func flatMapCanSwitchStrategy() {
        let signalled = record { _ in
            // Made here, under the mock: a signal made inside the closure, at
            // subscription, would deliver on the main scheduler.
            let inner = Signal.just(2)
            let signal: Signal<Int> = Driver.just(1).flatMap { _ in inner }
            return signal
        }
        #expect(signalled == [.next(200, 2), .completed(200)])
    }

    @Test func distinctUntilChangedWithAKeyAndAComparer() {
        let distinct = record { _ in
            Driver.of("a", "A", "b").distinctUntilChanged({ $0.lowercased() }, comparer: { $0 == $1 })
        }
        #expect(distinct == [.next(200, "a"), .next(200, "b"), .completed(200)])
    }

    @Test func fromOptionalAndWithUnretained() {
        final class Owner { let name = "o" }
        let owner = Owner()
        #expect(record { _ in Driver.from(optional: 1) } == [.next(200, 1), .completed(200)])
        #expect(record { _ in Driver<Int>.from(optional: nil) } == [.completed(200)])
        let paired = record { _ in Driver.just(2).withUnretained(owner).map { "\($0.name)\($1)" } }
        #expect(paired == [.next(200, "o2"), .completed(200)])
    }

    @Test func asSharedSequenceWithAStrategy() {
        let driven = record { scheduler in
            scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
                .asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: -1)
        }
        #expect(driven == [.next(210, 1), .next(220, -1), .completed(220)])
        let recovered = record { _ in
            // The recovery signal is made here, under the mock (see flatMapCanSwitchStrategy).
            let five = Signal.just(5)
            let signal: Signal<Int> = Observable<Int>.error(TestError(2)).asSharedSequence(onErrorRecover: { _ in five })
            return signal.asSharedSequence()
        }
        #expect(recovered == [.next(200, 5), .completed(200)])
        let fallback = record { _ in
            Observable<Int>.error(TestError(2)).asSharedSequence(onErrorDriveWith: Driver.just(6))
        }
        #expect(fallback == [.next(200, 6), .completed(200)])
    }
}
