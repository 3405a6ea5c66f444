import Foundation
import Testing
import Tick
import TickTesting

/// Runs `body` on a new thread with an 8 MiB stack (a typical main thread)
/// and waits for it to finish. The thread counts its resources in the
/// caller's leak-check scope.
func onEightMiBStack(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let scope = Resources.current
    let thread = Thread {
        if let scope { scope.run(body) } else { body() }
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
}

/// Issue 16, item 3: long chains of element-wise operators subscribe,
/// deliver, dispose and deallocate without growing the stack per operator.
/// (These run in debug builds, where frames are largest.)
@Suite(.checksResourceLeaks) struct DeepChainTests {
    @Test func aHundredThousandChainedMapsWork() {
        let result = Locked<[Event<Int>]>([])
        onEightMiBStack {
            var chain = Observable.just(0)
            for _ in 0..<100_000 { chain = chain.map { $0 + 1 } }
            let subscription = chain.subscribe { event in result.withLock { $0.append(event) } }
            subscription.dispose()
        }
        #expect(result.withLock { $0 } == [.next(100_000), .completed])
    }

    @Test func aHundredThousandMixedStagesWithOptionalElementsWork() {
        let result = Locked<[Event<Int?>]>([])
        onEightMiBStack {
            let subject = PublishSubject<Int?>()
            var chain = subject.asObservable()
            for index in 0..<50_000 {
                chain = chain.map { $0.map { $0 + 1 } }
                chain = chain.compactMap { (value: Int?) -> Int?? in
                    // The first of these drops odd numbers; all keep `nil` elements.
                    guard let value else { return .some(nil) }
                    return index > 0 || value % 2 == 0 ? .some(value) : nil
                }
            }
            let subscription = chain.subscribe { event in result.withLock { $0.append(event) } }
            for value in [1, nil, 2, 3] { subject.onNext(value) }
            subscription.dispose()
        }
        // 1 -> 2 kept, then 49,999 more; nil stays nil; 2 -> 3 dropped; 3 -> 4 kept.
        #expect(result.withLock { $0 } == [.next(50_001), .next(nil), .next(50_003)])
    }

    @Test func aLongChainIsReleasedWithoutSubscribing() {
        let released = Locked(false)
        onEightMiBStack {
            var chain = Observable.just(0)
            for _ in 0..<200_000 { chain = chain.compactMap { $0 + 1 } }
            _ = chain
            released.withLock { $0 = true }
        }
        #expect(released.withLock { $0 })
    }

    /// A fused chain behaves like one sink per stage: the same events, the
    /// same stages run, the same end on an error or a disposal mid-element.
    @Test(arguments: [5, 31, 32, 33, 100])
    func fusedAndUnfusedChainsBehaveTheSame(depth: Int) {
        let scheduler = TestScheduler()
        var ran: [Int] = []
        var subscription: (any Disposable)?
        let subject = PublishSubject<Int>()
        var chain = subject.asObservable()
        for stage in 0..<depth {
            chain = chain.map { value in
                ran.append(stage)
                if value == 2, stage == 3 { subscription?.dispose() }
                if value == 3, stage == 1 { throw TestError(7) }
                return value
            }
        }
        let observer = scheduler.createObserver(Int.self)
        subscription = chain.subscribe(observer)
        subject.onNext(1)
        #expect(ran == Array(0..<depth))
        ran = []
        subject.onNext(2)  // disposed by stage 3: stages after it do not run
        #expect(ran == [0, 1, 2, 3])
        #expect(observer.events == [.next(0, 1)])

        ran = []
        let errors = scheduler.createObserver(Int.self)
        let second = chain.subscribe(errors)
        subject.onNext(3)
        #expect(ran == [0, 1])
        #expect(errors.events == [.error(0, TestError(7))])
        subject.onNext(1)
        #expect(ran == [0, 1])
        second.dispose()
    }

    /// Subscriptions nested deeper than 128 are queued on the trampoline, so
    /// a chain of 10,000 `flatMap`s subscribes and delivers on an 8 MiB stack.
    @Test func tenThousandChainedFlatMapsWork() {
        let result = Locked<[Event<Int>]>([])
        onEightMiBStack {
            var chained = Observable.just(0)
            for _ in 0..<10_000 { chained = chained.flatMap { Observable.just($0 + 1) } }
            let subscription = chained.subscribe { event in result.withLock { $0.append(event) } }
            subscription.dispose()
        }
        #expect(result.withLock { $0 } == [.next(10_000), .completed])
    }

    @Test func aDeferredSubscriptionDisposedBeforeItIsMadeIsNeverMade() {
        let subscribed = Locked(0)
        onEightMiBStack {
            let counted = Observable<Int>.create { _ in
                subscribed.withLock { $0 += 1 }
                return Disposables.create()
            }
            var chain = counted
            for _ in 0..<300 { chain = chain.flatMap { Observable.just($0) } }
            // Disposed from inside the trampoline before the queued deeper
            // subscriptions run: the source is never subscribed.
            let outer = Observable<Int>.create { observer in
                let inner = chain.subscribe(observer)
                inner.dispose()
                return Disposables.create()
            }
            outer.subscribe { _ in }.dispose()
        }
        #expect(subscribed.withLock { $0 } == 0)
    }

    /// `concat`s nested directly in each other, either way round, take
    /// over each other's sources: one sink, however deep.
    @Test func tenThousandNestedConcatsWork() {
        let last = Locked<[Event<Int>]>([])
        let first = Locked<[Event<Int>]>([])
        onEightMiBStack {
            var nestedLast = Observable.just(-1)
            var nestedFirst = Observable.just(-1)
            for index in 0..<10_000 {
                nestedLast = Observable.concat(.just(index), nestedLast)
                nestedFirst = Observable.concat(nestedFirst, .just(index))
            }
            nestedLast.subscribe { event in last.withLock { $0.append(event) } }.dispose()
            nestedFirst.subscribe { event in first.withLock { $0.append(event) } }.dispose()
        }
        #expect(last.withLock { $0 } == (-1..<10_000).reversed().map { .next($0) } + [.completed])
        #expect(first.withLock { $0 } == (-1..<10_000).map { .next($0) } + [.completed])
    }

    /// `flatMap`s returned directly by a `flatMap`'s selector, and `merge`s
    /// nested directly in each other, take over each other's sources.
    @Test func tenThousandNestedFlatMapsAndMergesWork() {
        let nested = Locked<[Event<Int>]>([])
        let selectors = Locked<[Event<Int>]>([])
        let merges = Locked<[Event<Int>]>([])
        onEightMiBStack {
            var flat = Observable.of(1, 2, 3)
            for _ in 0..<10_000 {
                let inner = flat
                flat = Observable.just(0).flatMap { _ in inner }
            }
            // Each level's selector makes the next level when it runs.
            func level(_ value: Int) -> Observable<Int> {
                value == 10_000 ? .just(value) : Observable.just(value + 1).flatMap(level)
            }
            var merged = Observable.just(-1)
            for index in 0..<10_000 { merged = Observable.merge(.just(index), merged, .empty()) }
            flat.subscribe { event in nested.withLock { $0.append(event) } }.dispose()
            level(0).subscribe { event in selectors.withLock { $0.append(event) } }.dispose()
            merged.subscribe { event in merges.withLock { $0.append(event) } }.dispose()
        }
        #expect(nested.withLock { $0 } == [.next(1), .next(2), .next(3), .completed])
        #expect(selectors.withLock { $0 } == [.next(10_000), .completed])
        #expect(merges.withLock { $0 } == (-1..<10_000).reversed().map { .next($0) } + [.completed])
    }

    /// How the levels of a nested structure are joined.
    enum Joint: CaseIterable {
        /// Directly: nested operators take each other over.
        case direct
        /// With a `map` between: a nested `flatMap` is taken over with the
        /// `map` kept as a stage (FlatMap+Stages.swift).
        case map
        /// With a `filter` between, which nothing takes over: one sink per
        /// level, the reference.
        case filter
    }

    /// Taking over a nested `concat`/`flatMap`/`merge`, directly or through
    /// `map`s, changes nothing a user can see: the same events,
    /// subscriptions and disposals, in the same order, as the same structure
    /// with an operator (`filter`) between the levels, which keeps one sink
    /// per level.
    @Test(arguments: 0..<9)
    func nestedOperatorsBehaveAsWhenSeparated(structure: Int) {
        func run(_ joint: Joint) -> [String] {
            let log = Locked<[String]>([])
            let subject = PublishSubject<Int>()
            func wrap(_ observable: Observable<Int>) -> Observable<Int> {
                switch joint {
                case .direct: observable
                case .map: observable.map { $0 }
                case .filter: observable.filter { _ in true }
                }
            }
            func leaf(_ name: String, _ source: Observable<Int>) -> Observable<Int> {
                source.do(
                    onNext: { value in log.withLock { $0.append("\(name) next \(value)") } },
                    onError: { _ in log.withLock { $0.append("\(name) error") } },
                    onCompleted: { log.withLock { $0.append("\(name) completed") } },
                    onSubscribe: { log.withLock { $0.append("\(name) subscribe") } },
                    onSubscribed: { log.withLock { $0.append("\(name) subscribed") } },
                    onDispose: { log.withLock { $0.append("\(name) disposed") } })
            }
            let observable: Observable<Int>
            switch structure {
            case 0:
                observable = Observable.concat(
                    leaf("a", .from([1, 2])),
                    wrap(Observable.concat(leaf("b", .of(3)), wrap(Observable.concat([])), leaf("c", .from([4])))),
                    leaf("d", .just(5)))
            case 1:
                observable = Observable.merge(
                    leaf("a", .from([1, 2])),
                    wrap(Observable.merge(
                        leaf("b", .from([3, 4])), wrap(Observable.merge(leaf("c", .of(5)), leaf("d", .empty()))))),
                    leaf("e", .from([6, 7])))
            case 2:
                observable = leaf("a", .from([1, 2])).flatMap { value in
                    wrap(leaf("b\(value)", .from([value * 10, value * 10 + 1])).flatMap { inner in
                        wrap(Observable.merge(leaf("c\(inner)", .of(inner)), leaf("d\(inner)", .from([inner + 100]))))
                    })
                }
            case 3:
                observable = Observable.merge(
                    leaf("a", .from([1, 2])),
                    wrap(Observable.merge(leaf("b", .error(TestError(1))), leaf("c", .from([3])))))
            case 4:
                observable = Observable.concat(
                    wrap(Observable.concat(leaf("a", .from([1, 2, 3])), leaf("b", .from([4])))),
                    leaf("c", .just(5))
                ).take(2)
            case 5:
                observable = Observable.merge(
                    leaf("a", .from([1])),
                    wrap(leaf("b", .from([2, 3])).flatMap { value in
                        wrap(Observable.merge(leaf("c\(value)", .just(value)), wrap(Observable.merge([]))))
                    }))
            case 7:
                // Trampoline steps: an empty nested concat takes one, as
                // subscribing it would, so `b` interleaves with `c` the same.
                observable = Observable.merge(
                    Observable.concat(leaf("a", .just(1)), wrap(Observable.concat([])), leaf("b", .from([2, 3]))),
                    leaf("c", .from([10, 11, 12, 13])))
            case 8:
                // Driven from outside any subscription: the nested merge's
                // sources are subscribed inside one trampoline, as before.
                observable = subject.flatMap { value in
                    wrap(Observable.merge(
                        leaf("a\(value)", .from([value, value + 1])),
                        wrap(leaf("b\(value)", .from([value + 10])).flatMap { inner in
                            leaf("c\(inner)", .from([inner, inner + 1]))
                        })))
                }
            default:
                observable = leaf("a", .from([1, 2])).flatMap { value in
                    wrap(leaf("b\(value)", .from([value])).flatMap { _ in
                        wrap(Observable.concat(leaf("c\(value)", .just(value)), wrap(Observable.concat(leaf("d", .empty())))))
                    })
                }.take(3)
            }
            let subscription = observable.subscribe { event in log.withLock { $0.append("observer \(event)") } }
            subject.onNext(100)
            subject.onNext(200)
            subscription.dispose()
            return log.withLock { $0 }
        }
        let separated = run(.filter)
        #expect(separated.contains { $0.hasPrefix("observer") })
        #expect(run(.direct) == separated)
        #expect(run(.map) == separated)
    }

    /// Issue 25: `flatMap`s nested 10,000 deep with a `map` at each level
    /// (`nest(n) = just(n).flatMap { _ in nest(n - 1) }.map { $0 + 1 }`), on
    /// an 8 MiB stack in a debug build. With a map sink and a merge sink per
    /// level (before FlatMap+Stages.swift) an element recursed through both
    /// at every level: `nest` below overflowed the 8 MiB stack at 2,300
    /// levels in a debug build (2,200 passed; the same code as a scratch
    /// executable against the commit before, 2026-11-26).
    @Test func tenThousandNestedFlatMapsWithAMapAtEachLevelWork() {
        let plain = Locked<[Event<Int>]>([])
        let mixed = Locked<[Event<String>]>([])
        onEightMiBStack {
            func nest(_ n: Int) -> Observable<Int> {
                n == 0 ? .from([0, 1, 2]) : Observable.just(n).flatMap { _ in nest(n - 1) }.map { $0 + 1 }
            }
            // Stages of other kinds and types between the levels, dropping an element.
            func mixedNest(_ n: Int) -> Observable<String> {
                n == 0
                    ? .from(["0", "x", "1"])
                    : Observable.just(n).flatMap { _ in mixedNest(n - 1) }
                        .compactMap { Int($0) }.map { String($0 + 1) }
            }
            nest(10_000).subscribe { event in plain.withLock { $0.append(event) } }.dispose()
            mixedNest(10_000).subscribe { event in mixed.withLock { $0.append(event) } }.dispose()
        }
        #expect(plain.withLock { $0 } == [.next(10_000), .next(10_001), .next(10_002), .completed])
        #expect(mixed.withLock { $0 } == [.next("10000"), .next("10001"), .completed])
    }

    /// An error thrown by a `map` kept as a stage ends the whole nest, as it
    /// would through a sink per level; so does an error of the innermost
    /// sequence, and disposing stops delivery in the middle of the stages.
    @Test func aStageOfANestedFlatMapThatThrowsEndsTheNest() {
        let scheduler = TestScheduler()
        for joint in [Joint.map, .filter] {
            func nest(_ n: Int) -> Observable<Int> {
                guard n > 0 else { return .from([0, 1, 2]) }
                let inner = Observable.just(n).flatMap { _ in nest(n - 1) }
                let mapped = inner.map { value -> Int in
                    if n == 3, value == 3 + 1 { throw TestError(n) }
                    return value + 1
                }
                return joint == .map ? mapped : mapped.filter { _ in true }
            }
            let observer = scheduler.createObserver(Int.self)
            nest(5).subscribe(observer).dispose()
            #expect(observer.events == [.next(0, 5), .next(0, 6), .error(0, TestError(3))], "\(joint)")
        }
    }

    /// The depth nested `flatMap`/`concat` with another operator between
    /// the levels reach (Docs/Operators.md, "Limits"): 1,000 levels on an
    /// 8 MiB stack in a debug build.
    @Test func aThousandNestedFlatMapAndConcatLevelsWork() {
        let result = Locked<[Int]>([])
        onEightMiBStack {
            var flat = Observable.just(0)
            var concatenated = Observable.just(0)
            for _ in 0..<1_000 {
                flat = flat.flatMap { Observable.just($0 + 1) }
                concatenated = Observable.concat(concatenated.map { $0 + 1 }, .empty())
            }
            let a = flat.subscribe(onNext: { value in result.withLock { $0.append(value) } })
            let b = concatenated.subscribe(onNext: { value in result.withLock { $0.append(value) } })
            a.dispose()
            b.dispose()
        }
        #expect(result.withLock { $0 } == [1_000, 1_000])
    }
}
