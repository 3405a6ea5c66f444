import Testing
import Tick
import TickTesting

/// Virtual time is deterministic: the same test, run again, records exactly the
/// same timeline (times, order, values), whatever else the machine is doing.
@Suite(.checksResourceLeaks) struct DeterminismTests {
    /// A representative set of virtual-time scenarios, each reduced to the text
    /// of its recorded timeline.
    static func timelines() -> [String] {
        var result: [String] = []

        // Hot source through several operators, with delay and a timer merge-like interleave.
        do {
            let scheduler = TestScheduler()
            let xs = scheduler.createHotObservable((0..<200).map { Recorded.next(TestTime(150 + $0 * 3), $0) })
            let observer = scheduler.start(disposed: 900) {
                xs.map { $0 * 7 }.filter { $0 % 3 != 0 }.delay(.microseconds(2500), scheduler: scheduler).take(60)
            }
            result.append("\(observer.events)|\(xs.subscriptions)")
        }

        // Cold sources subscribed at different times, same-instant ties everywhere.
        do {
            let scheduler = TestScheduler()
            let cold = scheduler.createColdObservable([.next(0, "a"), .next(0, "b"), .next(5, "c"), .completed(5)])
            let first = scheduler.createObserver(String.self)
            let second = scheduler.createObserver(String.self)
            scheduler.scheduleAt(10) { _ = cold.subscribe(first) }
            scheduler.scheduleAt(10) { _ = cold.subscribe(second) }
            scheduler.run()
            result.append("\(first.events)|\(second.events)|\(cold.subscriptions)")
        }

        // Timers, intervals and periodic work sharing instants.
        do {
            let scheduler = TestScheduler()
            var log: [String] = []
            let a = Observable<Int>.interval(.milliseconds(3), scheduler: scheduler).subscribe(onNext: { log.append("a\($0)@\(scheduler.clock)") })
            let b = Observable<Int>.timer(.milliseconds(6), period: .milliseconds(6), scheduler: scheduler)
                .subscribe(onNext: { log.append("b\($0)@\(scheduler.clock)") })
            let c = scheduler.schedulePeriodic(after: .zero, period: .milliseconds(4)) { log.append("c@\(scheduler.clock)") }
            scheduler.advance(to: 60)
            [a, b, c].forEach { $0.dispose() }
            result.append(log.joined(separator: ","))
        }

        // Subjects fed from scheduled work, with re-entrant sends.
        do {
            let scheduler = TestScheduler()
            let subject = BehaviorSubject(value: 0)
            var log: [String] = []
            let subscription = subject.subscribe(onNext: { value in
                log.append("\(value)@\(scheduler.clock)")
                if value % 10 == 5 { subject.onNext(value + 1) }
            })
            for step in 1...50 { scheduler.scheduleAt(TestTime(step * 2)) { subject.onNext(step * 5) } }
            scheduler.run()
            subscription.dispose()
            result.append(log.joined(separator: ","))
        }
        result += timeBasedTimelines()
        result.append(marbleTimeline())
        return result
    }

    /// Irregular but fixed element times (a small linear congruential
    /// generator with a fixed seed): gaps of 0 to 9 frames, ties included.
    static func irregularSource(count: Int, from start: Int, seed: UInt64) -> [Recorded<Event<Int>>] {
        var state = seed
        var time = start
        var events: [Recorded<Event<Int>>] = []
        for value in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            time += Int((state >> 33) % 10)
            events.append(.next(TestTime(time), value))
        }
        events.append(.completed(TestTime(time + 20)))
        return events
    }

    /// Every time-based operator family on the same irregular hot source.
    static func timeBasedTimelines() -> [String] {
        let source = irregularSource(count: 40, from: 201, seed: 42)
        func run<R>(_ make: @escaping (TestScheduler, Observable<Int>) -> Observable<R>) -> String {
            let scheduler = TestScheduler()
            let xs = scheduler.createHotObservable(source)
            let observer = scheduler.start(disposed: 2000) { make(scheduler, xs.asObservable()) }
            return "\(observer.events)|\(xs.subscriptions)"
        }
        let ms = Duration.milliseconds
        return [
            run { s, xs in xs.debounce(ms(5), scheduler: s) },
            run { s, xs in xs.throttle(ms(4), latest: true, scheduler: s) },
            run { s, xs in xs.throttle(ms(4), latest: false, scheduler: s) },
            // Gaps reach 9 frames: a gap of exactly the timeout decides the deadline rule.
            run { s, xs in xs.timeout(ms(9), scheduler: s) },
            run { s, xs in xs.buffer(timeSpan: ms(10), count: 4, scheduler: s) },
            run { s, xs in xs.take(for: ms(300), scheduler: s) },
            run { s, xs in xs.delaySubscription(ms(25), scheduler: s) },
            run { s, xs in
                xs.filter { $0 % 7 == 0 }.flatMapLatest { value in
                    Observable<Int>.timer(ms(3), period: ms(4), scheduler: s).map { value * 100 + $0 }.take(5)
                }
            },
            run { s, xs in
                Observable.combineLatest(
                    Observable<Int>.interval(ms(3), scheduler: s), Observable<Int>.interval(ms(5), scheduler: s)
                ) { "\($0)-\($1)" }
                .take(until: xs.filter { $0 == 30 })
            },
        ]
    }

    /// Marble-built sources through a time-based chain, checked by a marble
    /// expectation (a mismatch is a test failure in every run) and reduced to
    /// its recorded events.
    static func marbleTimeline() -> String {
        let scheduler = TestScheduler()
        let hot = scheduler.hot("--a-b--c----d-|")
        let cold = scheduler.cold("-x---y|")
        let chain = hot.asObservable()
            .flatMap { letter in cold.asObservable().map { $0 == "x" ? letter : letter.uppercased() } }
            .delay(.milliseconds(2), scheduler: scheduler)
        scheduler.expect(chain).toBe("-----a-b-AcB--Cd---D|")
        scheduler.expectSubscriptions(cold.subscriptions).toBe(
            "--^-----!", "----^-----!", "-------^-----!", "------------^-----!")
        scheduler.flush()
        let again = TestScheduler()
        let observer = again.createObserver(String.self)
        let replay = again.cold("-a-b-(cd)--|").asObservable().throttle(.milliseconds(2), scheduler: again)
        let subscription = replay.subscribe(observer)
        again.run()
        subscription.dispose()
        return "\(observer.events)|\(cold.subscriptions)"
    }

    @Test func aHundredRunsRecordIdenticalTimelines() {
        let reference = Self.timelines()
        #expect(reference.allSatisfy { !$0.isEmpty })
        for run in 1..<100 {
            let again = Self.timelines()
            guard again == reference else {
                Issue.record("run \(run) recorded a different timeline")
                return
            }
        }
    }
}
