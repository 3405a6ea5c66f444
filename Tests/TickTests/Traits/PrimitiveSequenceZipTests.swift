import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SingleZipTests {
    @Test func zipOfTwoWaitsForBothWithASelector() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let b = scheduler.createColdObservable([.next(30, "b"), .completed(30)])
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle()) { "\($0)\($1)" } }
        #expect(res.events == [.next(230, "1b"), .completed(230)])
        #expect(a.subscriptions == [Subscription(200, 210)])
        #expect(b.subscriptions == [Subscription(200, 230)])
    }

    @Test func zipOfThreeToEightSingles() {
        let three: Single<Int> = Single.zip(.just(1), .just(2), .just(3)) { $0 + $1 + $2 }
        #expect(TestScheduler().start { three }.events == [.next(200, 6), .completed(200)])
        let eight: Single<Int> = Single.zip(
            .just(1), .just(2), .just(3), .just(4), .just(5), .just(6), .just(7), .just(8)
        ) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
        #expect(TestScheduler().start { eight }.events == [.next(200, 36), .completed(200)])
        // Nine works too: the arities are one variadic generic.
        let one = Single.just(1)
        let nine: Single<[Int]> = Single.zip(one, one, one, one, one, one, one, one, one) {
            (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int) -> [Int] in [a, b, c, d, e, f, g, h, i]
        }
        #expect(TestScheduler().start { nine }.events == [.next(200, Array(repeating: 1, count: 9)), .completed(200)])
    }

    @Test func zipOfSinglesAsTuples() {
        let pair: Single<(Int, String)> = Single.zip(.just(1), .just("a"))
        let res = TestScheduler().start { pair.map { "\($0.0)\($0.1)" } }
        #expect(res.events == [.next(200, "1a"), .completed(200)])
        let four = Single.zip(Single.just(1), Single.just("b"), Single.just(2.5), Single.just(true))
        let text = TestScheduler().start { four.map { "\($0)\($1)\($2)\($3)" } }
        #expect(text.events == [.next(200, "1b2.5true"), .completed(200)])
    }

    @Test func zipFailsAtTheFirstErrorAndDisposesTheOthers() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.error(20, TestError(1), Int.self)])
        let b = scheduler.createColdObservable([.next(40, 2), .completed(40)])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(10)])
        let res = scheduler.start { Single.zip(a.asSingle(), b.asSingle(), c.asSingle()) { $0 + $1 + $2 } }
        #expect(res.events == [.error(220, TestError(1))])
        #expect(b.subscriptions == [Subscription(200, 220)])
    }

    @Test func zipOfACollectionWithASelector() {
        let singles = [Single.just(1), .just(2), .just(3)]
        let sum: Single<Int> = Single.zip(singles) { $0.reduce(0, +) }
        #expect(TestScheduler().start { sum }.events == [.next(200, 6), .completed(200)])
        let arrays = TestScheduler().start { Single.zip(singles) }
        #expect(arrays.events == [.next(200, [1, 2, 3]), .completed(200)])
    }

    @Test func zipOfAnEmptyCollectionSucceedsAtSubscription() {
        var calls = 0
        let empty = Single.zip([Single<Int>]()) { (elements: [Int]) -> Int in
            calls += 1
            return elements.count
        }
        #expect(calls == 0)
        #expect(TestScheduler().start { empty }.events == [.next(200, 0), .completed(200)])
        #expect(TestScheduler().start { empty }.events == [.next(200, 0), .completed(200)])
        #expect(calls == 2)
        let arrays = TestScheduler().start { Single<Int>.zip([Single<Int>]()) }
        #expect(arrays.events == [.next(200, []), .completed(200)])
        let throwing = Single.zip([Single<Int>]()) { (_: [Int]) -> Int in throw TestError(7) }
        #expect(TestScheduler().start { throwing }.events == [.error(200, TestError(7))])
    }
}

@Suite(.checksResourceLeaks) struct MaybeZipTests {
    @Test func zipOfMaybesWithASelectorAndAsTuples() {
        let sum: Maybe<Int> = Maybe.zip(.just(1), .just(2), .just(3)) { $0 + $1 + $2 }
        #expect(TestScheduler().start { sum }.events == [.next(200, 6), .completed(200)])
        let pair: Maybe<(Int, String)> = Maybe.zip(.just(1), .just("a"))
        #expect(TestScheduler().start { pair.map { "\($0.0)\($0.1)" } }.events == [.next(200, "1a"), .completed(200)])
    }

    @Test func zipWithAnEmptyMaybeCompletesWithoutAnElement() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let empty = scheduler.createColdObservable([.completed(20, Int.self)])
        let res = scheduler.start { Maybe.zip(a.asMaybe(), empty.asMaybe()) { $0 + $1 } }
        #expect(res.events.compactMap(\.value.element).isEmpty)
        #expect(res.events.last?.value == .completed)
    }

    @Test func zipOfMaybesFailsAtTheFirstError() {
        let res = TestScheduler().start { Maybe.zip(Maybe.just(1), Maybe<Int>.error(TestError(2))) { $0 + $1 } }
        #expect(res.events == [.error(200, TestError(2))])
    }
}
