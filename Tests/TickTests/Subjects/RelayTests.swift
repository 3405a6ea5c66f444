import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct RelayTests {
    @Test func publishRelayDeliversFromSubscriptionOn() {
        let relay = PublishRelay<Int>()
        relay.accept(1)
        var seen: [Int] = []
        let subscription = relay.subscribe(onNext: { seen.append($0) })
        #expect(relay.hasObservers)
        relay.accept(2)
        relay.accept(3)
        subscription.dispose()
        relay.accept(4)
        #expect(seen == [2, 3])
        #expect(!relay.hasObservers)
    }

    @Test func behaviorRelayHoldsAValue() {
        let relay = BehaviorRelay(value: 1)
        #expect(relay.value == 1)
        var seen: [Int] = []
        let subscription = relay.subscribe(onNext: { seen.append($0) })
        relay.accept(2)
        #expect(relay.value == 2)
        var late: [Int] = []
        let lateSubscription = relay.subscribe(onNext: { late.append($0) })
        #expect(seen == [1, 2])
        #expect(late == [2])
        subscription.dispose()
        lateSubscription.dispose()
    }

    @Test func replayRelayReplaysItsBuffer() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        for value in 1...3 { relay.accept(value) }
        var seen: [Int] = []
        relay.subscribe(onNext: { seen.append($0) }).dispose()
        #expect(seen == [2, 3])
        let all = ReplayRelay<Int>.createUnbounded()
        for value in 1...3 { all.accept(value) }
        var everything: [Int] = []
        all.subscribe(onNext: { everything.append($0) }).dispose()
        #expect(everything == [1, 2, 3])
    }

    @Test func relaysOnATestScheduler() {
        let scheduler = TestScheduler()
        let relay = BehaviorRelay(value: 0)
        scheduler.scheduleAt(210) { relay.accept(1) }
        scheduler.scheduleAt(220) { relay.accept(2) }
        let res = scheduler.start { relay }
        #expect(res.events == [.next(200, 0), .next(210, 1), .next(220, 2)])
    }
}

@Suite(.checksResourceLeaks) struct BindTests {
    @Test func bindToSeveralObserversForwardsEveryEvent() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.bind(to: first, second) }
        scheduler.run()
        #expect(first.events == [.next(210, 1), .next(220, 2), .completed(230)])
        #expect(second.events == first.events)
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func bindToSubjectsPassesTheError() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(150) { _ = subject.subscribe(observer) }
        scheduler.scheduleAt(200) { _ = xs.bind(to: subject) }
        scheduler.run()
        #expect(observer.events == [.next(210, 1), .error(220, TestError(1))])
    }

    @Test func bindToOptionalObservers() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let observer = scheduler.createObserver(Int?.self)
        scheduler.scheduleAt(200) { _ = xs.bind(to: observer) }
        scheduler.run()
        #expect(observer.events == [.next(210, 1), .completed(230)])
    }

    @Test func bindToRelaysPassesElementsOnlyAndOutlivesCompletion() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 0)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        let optional = BehaviorRelay<Int?>(value: nil)
        let publishObserver = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(150) { _ = publish.subscribe(publishObserver) }
        scheduler.scheduleAt(200) {
            _ = xs.bind(to: publish, publish)
            _ = xs.bind(to: behavior)
            _ = xs.bind(to: replay)
            _ = xs.bind(to: optional)
        }
        scheduler.scheduleAt(240) { publish.accept(3) }
        scheduler.run()
        #expect(publishObserver.events == [.next(210, 1), .next(210, 1), .next(220, 2), .next(220, 2), .next(240, 3)])
        #expect(behavior.value == 2)
        #expect(optional.value == 2)
        var replayed: [Int] = []
        replay.subscribe(onNext: { replayed.append($0) }).dispose()
        #expect(replayed == [2])
    }

    @Test func bindingAnErrorToARelayIsReported() {
        let scheduler = TestScheduler()
        let relay = PublishRelay<Int>()
        withKnownIssue {
            _ = Observable<Int>.error(TestError(1)).bind(to: relay)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("An error was bound to PublishRelay") }
        }
        withKnownIssue {
            _ = Observable<Int>.error(TestError(1)).bind(onNext: { _ in })
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("bind(onNext:)") }
        }
        _ = scheduler
    }

    @Test func bindOnNextAndCustomBinders() {
        var seen: [Int] = []
        _ = Observable.of(1, 2).bind(onNext: { seen.append($0) })
        #expect(seen == [1, 2])
        let count = Observable.of(1, 2, 3).bind { (source: Observable<Int>) -> Int in
            var count = 0
            _ = source.subscribe(onNext: { _ in count += 1 })
            return count
        }
        #expect(count == 3)
        func prefixer(_ source: Observable<Int>) -> (String) -> [String] {
            { prefix in
                var out: [String] = []
                _ = source.subscribe(onNext: { out.append(prefix + "\($0)") })
                return out
            }
        }
        #expect(Observable.of(1, 2).bind(to: prefixer, curriedArgument: "#") == ["#1", "#2"])
    }
}
