import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct ScheduledCreationTests {
    @Test func justOfAndFromOnASchedulerMatchRxTest() {
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        #expect(scheduler.start { Observable.just(42, scheduler: scheduler) }.events == [.next(201, 42), .completed(202)])
        let s2 = TestScheduler(simulateProcessingDelay: true)
        #expect(s2.start { Observable.of(1, 2, scheduler: s2) }.events == [.next(201, 1), .next(202, 2), .completed(203)])
        let s3 = TestScheduler(simulateProcessingDelay: true)
        #expect(s3.start { Observable.from([1, 2], scheduler: s3) }.events == [.next(201, 1), .next(202, 2), .completed(203)])
        let s4 = TestScheduler()
        #expect(s4.start { Observable.from([1, 2], scheduler: s4) }.events == [.next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test func fromIsLazyAndDisposalCancelsThePendingStep() {
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        var pulled = 0
        let endless = (0...).lazy.map { value -> Int in
            pulled += 1
            return value
        }
        #expect(scheduler.start { Observable.from(endless, scheduler: scheduler).take(3) }.events
            == [.next(201, 0), .next(202, 1), .next(203, 2), .completed(203)])
        #expect(pulled == 3)
        let s2 = TestScheduler(simulateProcessingDelay: true)
        #expect(s2.start(disposed: 202) { Observable.from(0..<10, scheduler: s2) }.events == [.next(201, 0)])
        #expect(s2.pendingCount == 0)
    }

    @Test func fromOptional() {
        #expect(TestScheduler().start { Observable.from(optional: 3) }.events == [.next(200, 3), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.from(optional: nil) }.events == [.completed(200)])
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        #expect(scheduler.start { Observable.from(optional: 3, scheduler: scheduler) }.events
            == [.next(201, 3), .completed(202)])
        let s2 = TestScheduler(simulateProcessingDelay: true)
        #expect(s2.start { Observable<Int>.from(optional: nil, scheduler: s2) }.events == [.completed(201)])
    }
}

@Suite(.checksResourceLeaks) struct AsyncSubjectTests {
    @Test func sendsTheLastElementAtCompletionToEveryone() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230), .next(240, 3)])
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(late) }
        scheduler.run()
        #expect(early.events == [.next(230, 2), .completed(230)])
        #expect(late.events == [.next(300, 2), .completed(300)])
        #expect(subject.isStopped)
    }

    @Test func emptyErrorAndDisposal() {
        let empty = AsyncSubject<Int>()
        var log: [String] = []
        _ = empty.subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") })
        empty.onCompleted()
        let failing = AsyncSubject<Int>()
        failing.onNext(1)
        failing.onError(TestError(1))
        _ = failing.subscribe(onNext: { log.append("\($0)") }, onError: { log.append("\($0)") })
        let disposed = AsyncSubject<Int>()
        let subscription = disposed.subscribe(onNext: { log.append("late \($0)") })
        #expect(disposed.hasObservers)
        subscription.dispose()
        #expect(!disposed.hasObservers)
        disposed.onNext(5)
        disposed.onCompleted()
        #expect(log == ["completed", "TestError(1)"])
    }
}

@Suite(.checksResourceLeaks) struct SingleOperatorRxTests {
    @Test func singleForwardsAtOnceAndCompletesWithTheSource() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        #expect(scheduler.start { xs.single() }.events == [.next(210, 1), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        #expect(s2.start { ys.single() }.events == [.next(210, 1), .error(220, TickError.moreThanOneElement)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.completed(250, Int.self)])
        #expect(s3.start { zs.single() }.events == [.error(250, TickError.noElements)])
    }

    @Test func singleWithPredicate() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        #expect(scheduler.start { xs.single { $0 == 2 } }.events == [.next(220, 2), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        #expect(s2.start { ys.single { $0 > 1 } }.events == [.next(220, 2), .error(230, TickError.moreThanOneElement)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.next(210, 1), .completed(250)])
        #expect(s3.start { zs.single { _ in throw TestError(7) } }.events == [.error(210, TestError(7))])
    }

    @Test func ifEmptyDefault() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250, Int.self)])
        #expect(scheduler.start { xs.ifEmpty(default: 9) }.events == [.next(250, 9), .completed(250)])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1), .completed(250)])
        #expect(s2.start { ys.ifEmpty(default: 9) }.events == [.next(210, 1), .completed(250)])
        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.error(250, TestError(1), Int.self)])
        #expect(s3.start { zs.ifEmpty(default: 9) }.events == [.error(250, TestError(1))])
    }

    @Test func ifEmptySwitchTo() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let ys = scheduler.createColdObservable([.next(10, 5), .completed(20)])
        #expect(scheduler.start { xs.ifEmpty(switchTo: ys) }.events == [.next(260, 5), .completed(270)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(ys.subscriptions == [Subscription(250, 270)])
        let s2 = TestScheduler()
        let as2 = s2.createHotObservable([.next(210, 1), .completed(250)])
        let bs2 = s2.createColdObservable([.next(10, 5), .completed(20)])
        #expect(s2.start { as2.ifEmpty(switchTo: bs2) }.events == [.next(210, 1), .completed(250)])
        #expect(bs2.subscriptions.isEmpty)
    }
}

@Suite(.checksResourceLeaks) struct CatchSequenceTests {
    @Test func movesToTheNextSourceOnError() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let b = scheduler.createColdObservable([.next(10, 2), .error(20, TestError(2))])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.catch([a, b, c]) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 240)])
        #expect(c.subscriptions == [Subscription(240, 260)])
    }

    @Test func rxSwiftsSequenceLabelIsTheSameOperator() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { Observable.catch(sequence: [a, b]) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 240)])
    }

    @Test func failsWithTheLastErrorAndCompletesWhenEmpty() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.error(10, TestError(1), Int.self)])
        let b = scheduler.createColdObservable([.error(10, TestError(2), Int.self)])
        #expect(scheduler.start { Observable.catch([a, b]) }.events == [.error(220, TestError(2))])
        #expect(TestScheduler().start { Observable<Int>.catch([Observable<Int>]()) }.events == [.completed(200)])
    }

    @Test func pullsSourcesLazilyWithoutRecursion() {
        var made = 0
        let sources = (0..<100_000).lazy.map { index -> Observable<Int> in
            made += 1
            return index < 99_999 ? .error(TestError(index)) : .just(index)
        }
        let res = TestScheduler().start { Observable.catch(sources) }
        #expect(res.events == [.next(200, 99_999), .completed(200)])
        #expect(made == 100_000)
        var pulled = 0
        let stopsEarly = (0..<10).lazy.map { _ -> Observable<Int> in
            pulled += 1
            return .just(1)
        }
        _ = TestScheduler().start { Observable.catch(stopsEarly) }
        #expect(pulled == 1)
    }
}

@Suite(.checksResourceLeaks) struct SmallOperatorTests {
    @Test func enumeratedCountsFromZero() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, "z"), .next(210, "a"), .next(220, "b"), .completed(230)])
        let res = scheduler.start { xs.enumerated().map { "\($0.index)\($0.element)" } }
        #expect(res.events == [.next(210, "0a"), .next(220, "1b"), .completed(230)])
    }

    @Test func withUnretainedCompletesOnceTheObjectIsGone() {
        final class Owner { let name = "o" }
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        var owner: Owner? = Owner()
        scheduler.scheduleAt(230) { owner = nil }
        let res = scheduler.start { xs.withUnretained(owner ?? Owner()).map { "\($0.0.name)\($0.1)" } }
        #expect(res.events == [.next(210, "o1"), .next(220, "o2"), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(owner == nil)
        let s2 = TestScheduler()
        let keep = Owner()
        let ys = s2.createHotObservable([.next(210, 1), .completed(250)])
        #expect(s2.start { ys.withUnretained(keep) { "\($0.name)\($1)" } }.events == [.next(210, "o1"), .completed(250)])
    }

    @Test func subscribeWithObject() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        var disposedSeen = false
        _ = Observable.of(1, 2).subscribe(
            with: owner, onNext: { owner, value in owner.log.append("\(value)") },
            onCompleted: { owner in owner.log.append("done") }, onDisposed: { _ in disposedSeen = true })
        _ = Observable<Int>.error(TestError(1)).subscribe(with: owner, onError: { owner, error in owner.log.append("\(error)") })
        #expect(owner.log == ["1", "2", "done", "TestError(1)"])
        #expect(disposedSeen)
        var gone: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var calls = 0
        let subscription = subject.subscribe(with: gone ?? Owner(), onNext: { _, _ in calls += 1 })
        gone = nil
        subject.onNext(1)
        #expect(calls == 0)
        #expect(gone == nil)
        subscription.dispose()
    }

    @Test func distinctUntilChangedAtKeyPath() {
        struct Point { var x: Int; var y: Int }
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(210, Point(x: 1, y: 1)), .next(220, Point(x: 1, y: 2)), .next(230, Point(x: 2, y: 2)), .completed(240),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.x).map(\.y) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
    }

    @Test func debugWritesToTheReplaceableOutput() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let lines = DebugOutput.capture {
            _ = scheduler.start { xs.debug("xs") }
        }
        #expect(lines == ["xs -> subscribed", "xs -> Event next(1)", "xs -> Event completed", "xs -> isDisposed"])
        let long = DebugOutput.capture {
            _ = Observable.just(String(repeating: "a", count: 50)).debug("s", trimOutput: true).subscribe()
        }
        #expect(long[1] == "s -> Event next(aaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaa)")
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1)])
        let disposed = DebugOutput.capture { _ = s2.start(disposed: 230) { ys.debug() } }
        #expect(disposed.count == 3)
        #expect(disposed.last?.hasSuffix("-> isDisposed") == true)
        #expect(disposed.first?.hasPrefix("TickTests/MoreOperatorsTests.swift:") == true)
    }

    @Test func decodeWithJSONDecoder() {
        struct User: Decodable, Equatable { let name: String }
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(210, Data(#"{"name":"ada"}"#.utf8)), .next(220, Data("nope".utf8)), .completed(230),
        ])
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events.count == 2)
        #expect(res.events.first == .next(210, User(name: "ada")))
        #expect(res.events.last?.time == 220)
        #expect(res.events.last?.value.error is DecodingError)
    }
}
