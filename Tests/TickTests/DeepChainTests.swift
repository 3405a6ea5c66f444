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

    /// The depth nested `flatMap`/`concat` reach today (Docs/Operators.md,
    /// "Limits"): 1,000 levels on an 8 MiB stack in a debug build.
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
