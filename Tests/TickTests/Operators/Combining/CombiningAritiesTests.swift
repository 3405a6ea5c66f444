import Testing
import Tick
import TickTesting

/// combineLatest and zip over any number of sources, and the collection
/// forms' RxSwift typing.
@Suite(.checksResourceLeaks) struct CombiningAritiesTests {
    // MARK: combineLatest and zip over any number of sources

    @Test func combineLatestOfTenSourcesOfMixedTypes() {
        let scheduler = TestScheduler()
        let ints: [HotObservable<Int>] = (0..<5).map { i in
            scheduler.createHotObservable([.next(TestTime(210 + i), i), .completed(400)])
        }
        let strings: [HotObservable<String>] = (0..<5).map { i in
            scheduler.createHotObservable([.next(TestTime(220 + i), "s\(i)"), .completed(300)])
        }
        let res = scheduler.start {
            Observable.combineLatest(
                ints[0], strings[0], ints[1], strings[1], ints[2], strings[2], ints[3], strings[3], ints[4], strings[4]
            ) { (a: Int, b: String, c: Int, d: String, e: Int, f: String, g: Int, h: String, i: Int, j: String) -> String in
                "\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h)\(i)\(j)"
            }
        }
        #expect(res.events == [.next(224, "0s01s12s23s34s4"), .completed(400)])
        #expect(ints[4].subscriptions == [Subscription(200, 400)])
        #expect(strings[0].subscriptions == [Subscription(200, 300)])
    }

    @Test func combineLatestTupleFormsOfOneToNineSources() {
        let scheduler = TestScheduler()
        let x = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(300)])
        let y = scheduler.createHotObservable([.next(220, "a"), .completed(310)])
        let pairs = scheduler.start { Observable.combineLatest(x, y) }
        #expect(pairs.events.map(\.time) == [220, 230, 310])
        #expect(pairs.events.compactMap { $0.value.element.map { "\($0.0)\($0.1)" } } == ["1a", "3a"])
        let (i1, s2, d3) = (Observable.just(1), Observable.just("b"), Observable.just(3.0))
        let (i4, i5, i6, i7, i8) = (Observable.just(4), Observable.just(5), Observable.just(6), Observable.just(7), Observable.just(8))
        let b9 = Observable.just(true)
        let nine = TestScheduler().start { Observable.combineLatest(i1, s2, d3, i4, i5, i6, i7, i8, b9) }
        #expect(nine.events.count == 2)
        let first = nine.events.first?.value.element
        #expect(first.map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)\($0.5)\($0.6)\($0.7)\($0.8)" } == "1b3.045678true")
        let one = TestScheduler().start { Observable.combineLatest(Observable.just(1)) }
        #expect(one.events == [.next(200, 1), .completed(200)])
    }

    @Test func zipOfTenSourcesPairsByIndex() {
        let scheduler = TestScheduler()
        let sources: [HotObservable<Int>] = (0..<10).map { i in
            scheduler.createHotObservable([.next(TestTime(210 + i), i), .next(TestTime(250 + i), 10 * i), .completed(TestTime(300 + i))])
        }
        let res = scheduler.start {
            Observable.zip(
                sources[0], sources[1], sources[2], sources[3], sources[4],
                sources[5], sources[6], sources[7], sources[8], sources[9]
            ) { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int, j: Int) -> Int in
                [a, b, c, d, e, f, g, h, i, j].reduce(0, +)
            }
        }
        #expect(res.events == [.next(219, 45), .next(259, 450), .completed(309)])
        let tuples = TestScheduler().start { Observable.zip(Observable.of(1, 2), Observable.of("a", "b", "c")) }
        #expect(tuples.events.compactMap { $0.value.element.map { "\($0.0)\($0.1)" } } == ["1a", "2b"])
    }

    @Test func collectionFormsUseRxSwiftsElementTyping() {
        let sum: Observable<Int> = Observable.combineLatest([Observable.just(1), Observable.just(2)]) { $0.reduce(0, +) }
        #expect(TestScheduler().start { sum }.events == [.next(200, 3), .completed(200)])
        let arrays: Observable<[Int]> = Observable<Int>.zip([Observable.of(1, 2), Observable.of(3, 4)])
        #expect(TestScheduler().start { arrays }.events == [.next(200, [1, 3]), .next(200, [2, 4]), .completed(200)])
        let latest: Observable<[String]> = Observable<String>.combineLatest([Observable.just("a"), Observable.just("b")])
        #expect(TestScheduler().start { latest }.events == [.next(200, ["a", "b"]), .completed(200)])
    }
}
