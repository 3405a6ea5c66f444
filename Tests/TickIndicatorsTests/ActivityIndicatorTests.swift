import Testing
import TickIndicators
import TickTesting

typealias IndicatorState = ActivityIndicator.State

func state(_ loading: Bool, _ message: String?) -> IndicatorState {
    IndicatorState(loading: loading, message: message)
}

@Suite(.checksResourceLeaks) struct ActivityIndicatorTests {
    /// Records the indicator's states from time 0.
    func record(_ indicator: ActivityIndicator, _ scheduler: TestScheduler) -> TestableObserver<IndicatorState> {
        let observer = scheduler.createObserver(IndicatorState.self)
        indicator.subscribe(observer).disposed(by: indicator.disposeBag)
        return observer
    }

    @Test func newSubscriberGetsNotLoadingAndNoMessage() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator(defaultMessage: "Loading")
        let observer = record(indicator, scheduler)
        #expect(observer.events == [.next(0, state(false, nil))])
        #expect(indicator.state == state(false, nil))
    }

    @Test func firstNonNilMessageInRegistrationOrderWins() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let observer = record(indicator, scheduler)
        let a = scheduler.createColdObservable([.completed(500, Int.self)])
        let b = scheduler.createColdObservable([.completed(300, Int.self)])
        let c = scheduler.createColdObservable([.completed(700, Int.self)])
        let bag = DisposeBag()
        scheduler.scheduleAt(100) { a.trackActivity(in: indicator, message: nil).subscribe().disposed(by: bag) }
        scheduler.scheduleAt(200) { b.trackActivity(in: indicator, message: "b").subscribe().disposed(by: bag) }
        scheduler.scheduleAt(250) { c.trackActivity(in: indicator, message: "c").subscribe().disposed(by: bag) }
        scheduler.advance(to: 2000)
        #expect(observer.events == [
            .next(0, state(false, nil)),
            .next(100, state(true, nil)),  // a has no message
            .next(200, state(true, "b")),  // b is the first non-nil
            // c registered after b: no change at 250
            .next(500, state(true, "c")),  // b completed
            .next(950, state(false, nil)),
        ])
    }

    @Test func theFourFormsOnTheIndicatorAndOnObservables() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator(defaultMessage: "default")
        let source = scheduler.createColdObservable([.next(10, 5), .completed(20)])
        typealias Form = (Observable<Int>) -> Observable<Int>
        let forms: [(String, Form, [String?])] = [
            ("of", { indicator.trackActivity(of: $0) }, ["default"]),
            ("of message", { indicator.trackActivity(of: $0, message: "m") }, ["m"]),
            ("of provider", { indicator.trackActivity(of: $0, messageProvider: { "p\($0)" }) }, ["default", "p5"]),
            ("of initial", { indicator.trackActivity(of: $0, initialMessage: "i", messageProvider: { "p\($0)" }) }, ["i", "p5"]),
            ("in", { $0.trackActivity(in: indicator) }, ["default"]),
            ("in message", { $0.trackActivity(in: indicator, message: nil) }, [nil]),
            ("in provider", { $0.trackActivity(in: indicator, messageProvider: { "q\($0)" }) }, ["default", "q5"]),
            ("in initial", { $0.trackActivity(in: indicator, initialMessage: nil, messageProvider: { "q\($0)" }) }, [nil, "q5"]),
        ]
        for (name, form, messages) in forms {
            let start = scheduler.clock.frames
            let states = scheduler.createObserver(IndicatorState.self)
            let subscription = indicator.subscribe(states)
            let values = scheduler.createObserver(Int.self)
            _ = form(source.asObservable()).subscribe(values)
            scheduler.advance(by: 100)
            subscription.dispose()
            let expected = [state(false, nil)] + messages.map { state(true, $0) } + [state(false, nil)]
            #expect(states.events.map(\.value) == expected.map { .next($0) }, "\(name)")
            #expect(values.events.map(\.time.frames) == [start + 10, start + 20], "\(name)")
        }
    }

    @Test func onlyChangesAreEmitted() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let observer = record(indicator, scheduler)
        let source = scheduler.createColdObservable([.next(10, "x"), .next(20, "x"), .next(30, "y"), .next(40, "y"), .completed(50)])
        _ = source.trackActivity(in: indicator, initialMessage: "x", messageProvider: { $0 }).subscribe()
        scheduler.advance(to: 100)
        #expect(observer.events == [
            .next(0, state(false, nil)), .next(0, state(true, "x")), .next(30, state(true, "y")), .next(50, state(false, nil)),
        ])
    }

    @Test func completionReachesDownstreamBeforeTheEntryIsRemoved() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let log = Locked<[String]>([])
        indicator.subscribe(onNext: { s in log.withLock { $0.append("state \(s.loading) \(s.message ?? "-")") } })
            .disposed(by: indicator.disposeBag)
        let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        _ = source.trackActivity(in: indicator, messageProvider: { "got \($0)" }).subscribe(
            onNext: { v in log.withLock { $0.append("next \(v)") } },
            onCompleted: { log.withLock { $0.append("completed") } })
        scheduler.advance(to: 100)
        #expect(log.current == [
            "state false -", "state true -", "next 1", "state true got 1", "completed", "state false -",
        ])
    }

    @Test func errorRemovesTheEntryAfterForwarding() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator(defaultMessage: "d")
        let observer = record(indicator, scheduler)
        let source = scheduler.createColdObservable([.error(30, TestError(1), Int.self)])
        let values = scheduler.createObserver(Int.self)
        _ = source.trackActivity(in: indicator).subscribe(values)
        scheduler.advance(to: 100)
        #expect(values.events == [.error(30, TestError(1))])
        #expect(observer.events == [.next(0, state(false, nil)), .next(0, state(true, "d")), .next(30, state(false, nil))])
    }

    @Test func disposalMidwayRemovesTheEntry() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator(defaultMessage: "d")
        let observer = record(indicator, scheduler)
        let source = scheduler.createColdObservable([.next(500, 1)])
        let values = scheduler.start(created: 0, subscribed: 100, disposed: 300) { source.trackActivity(in: indicator) }
        #expect(values.events == [])
        #expect(source.subscriptions == [Subscription(100, 300)])
        #expect(observer.events == [.next(0, state(false, nil)), .next(100, state(true, "d")), .next(300, state(false, nil))])
    }

    @Test func sourceThatEndsWhileBeingSubscribedNeverRegisters() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator(defaultMessage: "d")
        let observer = record(indicator, scheduler)
        let finished = PublishSubject<Int>()
        finished.onCompleted()
        let values = scheduler.createObserver(Int.self)
        _ = finished.trackActivity(in: indicator).subscribe(values)
        #expect(values.events == [.completed(0)])
        #expect(observer.events == [.next(0, state(false, nil))])
    }

    @Test func elementsDuringSubscriptionApplyAfterRegistration() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let observer = record(indicator, scheduler)
        let current = BehaviorSubject(value: 3)
        let values = scheduler.createObserver(Int.self)
        let subscription = current.trackActivity(in: indicator, initialMessage: "start", messageProvider: { "v\($0)" })
            .subscribe(values)
        current.onNext(4)
        subscription.dispose()
        #expect(values.events == [.next(0, 3), .next(0, 4)])
        #expect(observer.events.map(\.value) == [
            .next(state(false, nil)), .next(state(true, "start")), .next(state(true, "v3")), .next(state(true, "v4")),
            .next(state(false, nil)),
        ])
    }

    @Test func anObserverMayTrackMoreWorkWhileBeingNotified() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let observer = record(indicator, scheduler)
        let followUp = scheduler.createColdObservable([.completed(100, Int.self)])
        let bag = DisposeBag()
        var started = false
        indicator.subscribe(onNext: { current in
            // When the first piece of work finishes, start a follow-up from here.
            if !current.loading, current.message == nil, scheduler.clock == 50, !started {
                started = true
                followUp.trackActivity(in: indicator, message: "follow-up").subscribe().disposed(by: bag)
            }
        }).disposed(by: bag)
        let first = scheduler.createColdObservable([.completed(50, Int.self)])
        first.trackActivity(in: indicator, message: "first").subscribe().disposed(by: bag)
        scheduler.advance(to: 1000)
        #expect(observer.events == [
            .next(0, state(false, nil)), .next(0, state(true, "first")), .next(50, state(false, nil)),
            .next(50, state(true, "follow-up")), .next(150, state(false, nil)),
        ])
        bag.dispose()  // The observer captures the bag: dispose it explicitly.
    }

    @Test func trackedSubscriptionsRetainTheIndicator() {
        let scheduler = TestScheduler()
        weak var weakIndicator: ActivityIndicator?
        let states = Locked<[IndicatorState]>([])
        var subscription: (any Disposable)?
        do {
            let indicator = ActivityIndicator(defaultMessage: "kept")
            weakIndicator = indicator
            let source = scheduler.createColdObservable([.completed(100, Int.self)])
            subscription = source.trackActivity(in: indicator).subscribe()
            indicator.subscribe(onNext: { s in states.withLock { $0.append(s) } }).disposed(by: indicator.disposeBag)
        }
        #expect(weakIndicator != nil)
        scheduler.advance(to: 100)
        #expect(weakIndicator == nil)
        #expect(states.current == [state(true, "kept"), state(false, nil)])
        subscription?.dispose()
    }
}

/// The seed README's "advanced example", as event arrays with times.
@Suite(.checksResourceLeaks) struct ActivityIndicatorPriorityTests {
    @Test func readmeAdvancedExamplePriorities() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let log = Locked<[String]>([])
        indicator.subscribe(onNext: { s in
            log.withLock { $0.append("\(scheduler.clock) \(s.loading) \(s.message ?? "Empty")") }
        }).disposed(by: indicator.disposeBag)
        func step(_ value: Int, _ seconds: Int) -> Observable<Int> {
            Observable.just(value).delay(.seconds(seconds), scheduler: scheduler)
        }
        func done(_ value: Int) { log.withLock { $0.append("\(scheduler.clock) done \(value)") } }
        let bag = DisposeBag()
        step(1, 2).trackActivity(in: indicator, message: "1")
            .flatMap { value -> Observable<Int> in done(value); return step(2, 2) }.trackActivity(in: indicator, message: "2")
            .flatMap { value -> Observable<Int> in done(value); return step(3, 2) }.trackActivity(in: indicator, message: "3")
            .subscribe(onNext: { done($0) }).disposed(by: bag)
        step(10, 3).trackActivity(in: indicator, message: "10")
            .flatMap { value -> Observable<Int> in done(value); return step(11, 5) }.trackActivity(in: indicator, message: "11")
            .subscribe(onNext: { done($0) }).disposed(by: bag)
        scheduler.run()
        #expect(log.current == [
            "0 false Empty", "0 true 1",
            "2000 done 1", "2000 true 2",
            "3000 done 10",
            "4000 done 2", "4000 true 3",
            "6000 done 3", "6000 true 11",
            "8000 done 11", "8000 false Empty",
        ])
    }

    @Test func anEarlierRegisteredMessageIsNotDisturbedByALaterOneFinishingEarly() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let states = scheduler.createObserver(ActivityIndicator.State.self)
        indicator.subscribe(states).disposed(by: indicator.disposeBag)
        let slow = scheduler.createColdObservable([.completed(500, Int.self)])
        let fast = scheduler.createColdObservable([.completed(100, Int.self)])
        let both = Observable.merge(
            slow.trackActivity(in: indicator, message: "slow").asObservable(),
            fast.trackActivity(in: indicator, message: "fast").asObservable())
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { both }
        #expect(observer.events == [.completed(500)])
        #expect(states.events == [
            .next(0, state(false, nil)), .next(0, state(true, "slow")), .next(500, state(false, nil)),
        ])
    }
}
