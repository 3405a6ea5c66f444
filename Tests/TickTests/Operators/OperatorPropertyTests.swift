import Testing
import Tick
import TickTesting

/// Random operator pipelines over random hot and cold timelines (fixed seeds),
/// checked against the rules every pipeline must keep, whatever it computes:
///
/// - the grammar: at most one terminal event, nothing after it, times never
///   going backwards;
/// - every subscription of every source has ended by the end of the scenario,
///   and no later than the result's termination (its terminal event, or the
///   disposal at 1000) plus the operator's documented slack, which is zero for
///   every operator used here: since issue 12, `delay` and `throttle` release
///   their source when it terminates, not when their own last event goes out;
/// - every source subscription ends when that source terminates: an operator
///   releases a source as soon as it has sent its terminal event (RxSwift's
///   rule; `delay` and `throttle` broke it before issue 12);
/// - no subscription starts before the result was subscribed, or ends before
///   it started;
/// - the same seed gives the same events and subscriptions (virtual time is
///   deterministic).
@Suite(.checksResourceLeaks) struct OperatorPropertyTests {
    /// One generated scenario: the pipeline, its description, and the
    /// subscription logs of every test observable it uses.
    struct Scenario {
        let scheduler: TestScheduler
        let pipeline: Observable<Int>
        let description: String
        let leaves: [Leaf]
    }

    /// A test observable of a scenario.
    struct Leaf {
        let hot: Bool
        /// When it sends its terminal event, if it has one: an absolute time
        /// if hot, a time after each subscription if cold.
        let terminal: TestTime?
        let subscriptions: () -> [Subscription]

        /// When the subscription `subscription` must have ended, if this
        /// observable terminated during it.
        func mustEnd(_ subscription: Subscription) -> TestTime? {
            guard let terminal else { return nil }
            if !hot { return TestTime(subscription.subscribe.frames + terminal.frames) }
            // Hot events scheduled at an instant run before a subscription made at that instant.
            return subscription.subscribe < terminal ? terminal : nil
        }
    }

    /// Builds random pipelines from a seeded generator.
    struct Builder {
        var random: SeededGenerator
        let scheduler: TestScheduler
        var leaves: [Leaf] = []

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
        mutating func frames(_ range: ClosedRange<Int>) -> Duration { .milliseconds(int(range)) }

        /// A hot or cold test observable with a few elements and, usually, a
        /// terminal event.
        mutating func leaf() -> (Observable<Int>, String) {
            let hot = chance(50)
            var time = hot ? 200 : 0
            var events: [Recorded<Event<Int>>] = []
            for _ in 0..<int(0...6) {
                time += int(0...40)
                events.append(.next(TestTime(time), int(0...9)))
            }
            time += int(1...40)
            var terminal: TestTime? = TestTime(time)
            switch int(0...9) {
            case 0...5: events.append(.completed(TestTime(time)))
            case 6...7: events.append(.error(TestTime(time), TestError(int(1...3))))
            default: terminal = nil
            }
            let text = events.map { "\($0.value)@\($0.time)" }.joined(separator: " ")
            if hot {
                let observable = scheduler.createHotObservable(events)
                leaves.append(Leaf(hot: true, terminal: terminal) { observable.subscriptions })
                return (observable.asObservable(), "hot[\(text)]")
            }
            let observable = scheduler.createColdObservable(events)
            leaves.append(Leaf(hot: false, terminal: terminal) { observable.subscriptions })
            return (observable.asObservable(), "cold[\(text)]")
        }

        /// A pipeline of at most `depth` levels of operators (at least one at
        /// the top: a bare test observable, like RxTest's, is unsubscribed only
        /// when its observer disposes it, not at its terminal event).
        mutating func pipeline(depth: Int, top: Bool = false) -> (Observable<Int>, String) {
            if depth == 0 || (!top && chance(15)) { return leaf() }
            let (source, text) = pipeline(depth: depth - 1)
            let scheduler = self.scheduler
            switch int(0...37) {
            case 0: return (source.map { $0 + 1 }, "\(text).map")
            case 1: return (source.filter { $0 % 2 == 0 }, "\(text).filter")
            case 2:
                let due = frames(1...50)
                return (source.delay(due, scheduler: scheduler), "\(text).delay(\(due))")
            case 3:
                let due = frames(1...50)
                let latest = chance(50)
                return (source.throttle(due, latest: latest, scheduler: scheduler), "\(text).throttle(\(due), latest: \(latest))")
            case 4:
                let due = frames(1...50)
                return (source.debounce(due, scheduler: scheduler), "\(text).debounce(\(due))")
            case 5:
                let count = int(0...4)
                return (source.take(count), "\(text).take(\(count))")
            case 6:
                let count = int(0...4)
                return (source.skip(count), "\(text).skip(\(count))")
            case 7:
                let duration = frames(1...100)
                return (source.take(for: duration, scheduler: scheduler), "\(text).take(for: \(duration))")
            case 8:
                let duration = frames(1...100)
                return (source.skip(for: duration, scheduler: scheduler), "\(text).skip(for: \(duration))")
            case 9:
                let due = frames(1...60)
                return (source.timeout(due, scheduler: scheduler), "\(text).timeout(\(due))")
            case 10:
                let (sampler, samplerText) = leaf()
                let withDefault = chance(50)
                return (source.sample(sampler, defaultValue: withDefault ? -1 : nil), "\(text).sample(\(samplerText), default: \(withDefault))")
            case 11: return (source.distinctUntilChanged(), "\(text).distinctUntilChanged")
            case 12: return (source.scan(0, accumulator: +), "\(text).scan")
            case 13: return (source.startWith(-1), "\(text).startWith")
            case 14: return (source.catchAndReturn(-2), "\(text).catchAndReturn")
            case 15: return (source.retry(2), "\(text).retry(2)")
            case 16: return (source.do(onNext: { _ in }), "\(text).do")
            case 17: return (source.share(), "\(text).share")
            case 18: return (source.publish().refCount(), "\(text).publish.refCount")
            case 19: return (source.replay(1).refCount(), "\(text).replay(1).refCount")
            case 20:
                let span = frames(1...60)
                let count = int(1...3)
                return (source.buffer(timeSpan: span, count: count, scheduler: scheduler).map(\.count), "\(text).buffer(\(span), \(count))")
            case 21:
                let (other, otherText) = leaf()
                return (source.take(until: other), "\(text).take(until: \(otherText))")
            case 22:
                let (other, otherText) = leaf()
                return (source.skip(until: other), "\(text).skip(until: \(otherText))")
            case 23:
                let (other, otherText) = leaf()
                return (source.withLatestFrom(other) { $0 + $1 }, "\(text).withLatestFrom(\(otherText))")
            case 24:
                let (inner, innerText) = leaf()
                return (source.flatMap { _ in inner }, "\(text).flatMap(\(innerText))")
            case 25:
                let (inner, innerText) = leaf()
                return (source.flatMapLatest { _ in inner }, "\(text).flatMapLatest(\(innerText))")
            case 26:
                let (inner, innerText) = leaf()
                return (source.concatMap { _ in inner }, "\(text).concatMap(\(innerText))")
            case 27:
                let due = frames(1...50)
                return (source.delaySubscription(due, scheduler: scheduler), "\(text).delaySubscription(\(due))")
            case 28: return (source.groupBy { $0 % 3 }.flatMap { $0 }, "\(text).groupBy.flatMap")
            case 29:
                let span = frames(1...60)
                let count = int(1...3)
                return (
                    source.window(timeSpan: span, count: count, scheduler: scheduler).flatMap { $0.map { $0 * 2 } },
                    "\(text).window(\(span), \(count)).flatMap")
            case 30:
                let (fallback, fallbackText) = leaf()
                return (source.catch { _ in fallback }, "\(text).catch(\(fallbackText))")
            case 31:
                let due = frames(1...60)
                let (fallback, fallbackText) = leaf()
                return (source.timeout(due, other: fallback, scheduler: scheduler), "\(text).timeout(\(due), other: \(fallbackText))")
            case 32:
                let count = int(1...3)
                return (source.takeLast(count), "\(text).takeLast(\(count))")
            case 33:
                let (inner, innerText) = leaf()
                return (source.map { _ in inner }.switchLatest(), "\(text).map(\(innerText)).switchLatest")
            case 34:
                return (source.retry(when: { errors in errors.take(1) }), "\(text).retry(when: take(1))")
            case 35:
                return (source.debounce(frames(1...30), scheduler: scheduler).share(replay: 1), "\(text).debounce.share(replay: 1)")
            default:
                let (other, otherText) = pipeline(depth: depth - 1)
                switch int(0...4) {
                case 0: return (Observable.merge(source, other), "merge(\(text), \(otherText))")
                case 1: return (Observable.concat(source, other), "concat(\(text), \(otherText))")
                case 2: return (Observable.combineLatest(source, other) { $0 + $1 }, "combineLatest(\(text), \(otherText))")
                case 3: return (Observable.zip(source, other) { $0 * 10 + $1 }, "zip(\(text), \(otherText))")
                default: return (source.amb(other), "amb(\(text), \(otherText))")
                }
            }
        }
    }

    static func scenario(seed: UInt64) -> Scenario {
        let scheduler = TestScheduler()
        var builder = Builder(random: SeededGenerator(seed: seed), scheduler: scheduler)
        let (pipeline, description) = builder.pipeline(depth: 4, top: true)
        return Scenario(scheduler: scheduler, pipeline: pipeline, description: description, leaves: builder.leaves)
    }

    /// Runs the scenario of `seed`: the events, and every source subscription.
    static func run(seed: UInt64) -> (description: String, events: [Recorded<Event<Int>>], leaves: [Leaf]) {
        let scenario = scenario(seed: seed)
        let res = scenario.scheduler.start { scenario.pipeline }
        return (scenario.description, res.events, scenario.leaves)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func pipelinesKeepTheGrammarAndReleaseTheirSources(batch: UInt64) {
        for case_ in 0..<UInt64(250) {
            let seed = batch * 1_000 + case_
            let (description, events, leaves) = Self.run(seed: seed)
            let context = Comment(rawValue: "seed \(seed): \(description)")

            // The grammar.
            let terminals = events.indices.filter { events[$0].value.isStopEvent }
            #expect(terminals.count <= 1, context)
            if let terminal = terminals.first { #expect(terminal == events.count - 1, context) }
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, context)
            #expect(events.allSatisfy { $0.time >= 200 }, context)

            // Every source subscription ends, and no later than the result's termination.
            let end = terminals.first.map { events[$0].time } ?? 1000
            for leaf in leaves {
                for subscription in leaf.subscriptions() {
                    guard let due = leaf.mustEnd(subscription), let unsubscribe = subscription.unsubscribe else { continue }
                    #expect(unsubscribe <= due, "\(subscription) outlived its source's terminal event at \(due); \(context.rawValue)")
                }
            }
            for subscription in leaves.flatMap({ $0.subscriptions() }) {
                #expect(subscription.subscribe >= 200, context)
                guard let unsubscribe = subscription.unsubscribe else {
                    Issue.record("a source subscription never ended: \(subscription); \(context.rawValue)")
                    continue
                }
                #expect(unsubscribe >= subscription.subscribe, context)
                #expect(unsubscribe <= end, "ended at \(unsubscribe), after the result's termination at \(end); \(context.rawValue)")
            }

            // Deterministic.
            let again = Self.run(seed: seed)
            #expect(again.events == events, context)
            #expect(again.leaves.map { $0.subscriptions() } == leaves.map { $0.subscriptions() }, context)
        }
    }
}
