import Testing
import TickIndicators
import TickTesting

// The indicators driven by async view-model code on a TestScheduler's virtual
// clock (issue 14): tasks that `try await clock.sleep(...)` inside tracked
// calls, and a test that walks the timeline with `await scheduler.advance(to:)`.

/// One async load of a view model: its work runs until the test stops it (or
/// until its task is cancelled).
final class AsyncLoad: Sendable {
    private let gate: AsyncStream<Void>
    private let gateContinuation: AsyncStream<Void>.Continuation
    private let started: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation

    init() {
        (gate, gateContinuation) = AsyncStream<Void>.makeStream()
        (started, startedContinuation) = AsyncStream<Void>.makeStream()
    }

    /// The load's work: says it started, then waits until ``stop()`` (or the
    /// cancellation of its task).
    func work() async {
        startedContinuation.finish()
        for await _ in gate {}
    }

    /// Returns once ``work()`` has started.
    func waitUntilStarted() async {
        for await _ in started {}
    }

    /// Ends the work.
    func stop() {
        gateContinuation.finish()
    }
}

/// A load from `start` to `end` (frame times), with a message.
struct TimedLoad: Sendable, CustomStringConvertible {
    let start: TestTime
    let end: TestTime
    var message: String?

    init(_ start: TestTime, _ end: TestTime, _ message: String? = nil) {
        self.start = start
        self.end = end
        self.message = message
    }

    var description: String { "\(start)-\(end)" }
}

/// Runs `loads` as async tasks on `scheduler`'s virtual clock, each one
/// tracked by `track` (which must call the load's `work()` inside its tracked
/// call), and advances the scheduler to `until`.
///
/// The loads start and stop in time order; at the same instant, in the order
/// of `loads` (a load's stop before a later load's start). The order against
/// the components' timers at the same instant:
/// - ``SameInstantOrder/inputsFirst``: every start and stop is a task created
///   at the beginning that sleeps until its instant (its sleep is on the
///   scheduler's heap before any timer the components set later), so it
///   reaches the component before the timer due at the same instant.
/// - ``SameInstantOrder/timersFirst``: one task performs the starts and
///   stops in turn, sleeping until the next one only once the previous one
///   took effect (the load started, or ended and returned), so a timer set
///   by an earlier input comes first.
func runLoads(
    _ loads: [TimedLoad], order: SameInstantOrder, on scheduler: TestScheduler, until: TestTime,
    track: @escaping @Sendable (TimedLoad, AsyncLoad) async -> Void
) async {
    let clock = scheduler.virtualClock
    let works = loads.map { _ in AsyncLoad() }
    enum Step { case start, stop }
    let steps = loads.indices.flatMap { [(loads[$0].start, $0, Step.start), (loads[$0].end, $0, Step.stop)] }
        .enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
    var tasks: [Task<Void, Never>] = []
    switch order {
    case .inputsFirst:
        // The steps at a later instant sleep first; those at frame 0 run last
        // (no deadline is due at 0).
        for (time, index, step) in steps.filter({ $0.0 > 0 }) + steps.filter({ $0.0 == 0 }) {
            let instant = scheduler.instant(for: time)
            let load = loads[index]
            let work = works[index]
            tasks.append(Task {
                try? await clock.sleep(until: instant)
                switch step {
                case .start: await track(load, work)
                case .stop: work.stop()
                }
            })
        }
    case .timersFirst:
        let instants = steps.map { scheduler.instant(for: $0.0) }
        tasks.append(Task {
            var running: [Int: Task<Void, Never>] = [:]
            for ((_, index, step), instant) in zip(steps, instants) {
                try? await clock.sleep(until: instant)
                let load = loads[index]
                let work = works[index]
                switch step {
                case .start:
                    running[index] = Task { await track(load, work) }
                    await work.waitUntilStarted()
                case .stop:
                    work.stop()
                    await running[index]?.value
                }
            }
        })
    }
    await scheduler.advance(to: until)
    for task in tasks { await task.value }
}

/// Subscribes to a delayed spinner over `indicator` and logs its changes as
/// `show(message)@T` / `hide@T` words, `T` the virtual time.
func spinnerLog(
    _ indicator: ActivityIndicator, showAfter: Int, minimumVisible: Int = 0, hideAfter: Int = 0,
    on scheduler: TestScheduler
) -> (log: Locked<[String]>, subscription: any Disposable) {
    let log = Locked<[String]>([])
    let subscription = indicator.delayedVisibility(
        showAfter: .milliseconds(showAfter), minimumVisible: .milliseconds(minimumVisible),
        hideAfter: .milliseconds(hideAfter), scheduler: scheduler
    ).subscribe(onNext: { shown in
        let word = shown.loading ? "show(\(shown.message ?? "nil"))" : "hide"
        log.withLock { $0.append("\(word)@\(scheduler.clock)") }
    })
    return (log, subscription)
}

@Suite(.checksResourceLeaks) struct DelayedSpinnerVirtualClockTests {
    /// The issue's timeline: `showAfter` and `minimumVisible` of 500 ms, a
    /// view model's load of 700 ms.
    @Test func hiddenAt499VisibleAt500StillVisibleAt900HiddenAt1000() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let indicator = ActivityIndicator(defaultMessage: "Loading")
        let spinner = Locked(false)
        let subscription = indicator.delayedVisibility(
            showAfter: .milliseconds(500), minimumVisible: .milliseconds(500), scheduler: scheduler
        ).subscribe(onNext: { state in spinner.withLock { $0 = state.loading } })
        let load = Task {
            try await indicator.track { try await clock.sleep(for: .milliseconds(700)) }
        }
        var timeline: [String] = []
        for time: TestTime in [0, 499, 500, 699, 700, 900, 999, 1000] {
            await scheduler.advance(to: time)
            timeline.append("\(time): \(indicator.state.loading ? "loading" : "idle") \(spinner.current ? "visible" : "hidden")")
        }
        #expect(timeline == [
            "0: loading hidden", "499: loading hidden", "500: loading visible", "699: loading visible",
            "700: idle visible", "900: idle visible", "999: idle visible", "1000: idle hidden",
        ])
        try await load.value
        subscription.dispose()
    }

    @Test func aFastLoadNeverShows() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let indicator = ActivityIndicator()
        let (log, subscription) = spinnerLog(indicator, showAfter: 500, minimumVisible: 500, on: scheduler)
        let load = Task { try await indicator.track(message: "fast") { try await clock.sleep(for: .milliseconds(120)) } }
        await scheduler.advance(to: 5_000)
        try await load.value
        #expect(log.current == ["hide@0"])
        subscription.dispose()
    }

    /// Work that ends around `showAfter`: at exactly 500 ms it was still
    /// running at the deadline (it shows, and stays for the minimum).
    @Test(arguments: SameInstantOrder.allCases, [
        (499, ["hide@0"]),
        (500, ["hide@0", "show(m)@500", "hide@1000"]),
        (501, ["hide@0", "show(m)@500", "hide@1000"]),
    ] as [(TestTime, [String])])
    func aLoadEndingAroundShowAfter(order: SameInstantOrder, end: (TestTime, [String])) async {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let (log, subscription) = spinnerLog(indicator, showAfter: 500, minimumVisible: 500, on: scheduler)
        await runLoads([TimedLoad(0, end.0, "m")], order: order, on: scheduler, until: 5_000) { load, work in
            await indicator.track(message: load.message) { await work.work() }
        }
        #expect(log.current == end.1, "\(order)")
        subscription.dispose()
    }

    /// A second load starting around the end of the minimum (the first one
    /// showed at 500 and ended at 600): at exactly 1000 ms it is too late to
    /// keep the spinner up, and waits a full `showAfter` again.
    @Test(arguments: SameInstantOrder.allCases, [
        (999, ["hide@0", "show(a)@500", "show(b)@999", "hide@3000"]),
        (1000, ["hide@0", "show(a)@500", "hide@1000", "show(b)@1500", "hide@3000"]),
        (1001, ["hide@0", "show(a)@500", "hide@1000", "show(b)@1501", "hide@3000"]),
    ] as [(TestTime, [String])])
    func aLoadStartingAroundTheEndOfTheMinimum(order: SameInstantOrder, restart: (TestTime, [String])) async {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let (log, subscription) = spinnerLog(indicator, showAfter: 500, minimumVisible: 500, on: scheduler)
        await runLoads([TimedLoad(0, 600, "a"), TimedLoad(restart.0, 3_000, "b")], order: order, on: scheduler, until: 5_000) {
            load, work in
            await indicator.track(message: load.message) { await work.work() }
        }
        #expect(log.current == restart.1, "\(order)")
        subscription.dispose()
    }

    /// `hideAfter` bridges back-to-back loads; at exactly the end of the
    /// grace period the next load is too late.
    @Test(arguments: SameInstantOrder.allCases, [
        (899, ["hide@0", "show(a)@500", "show(b)@899", "hide@3300"]),
        (900, ["hide@0", "show(a)@500", "hide@900", "show(b)@1400", "hide@3300"]),
        (901, ["hide@0", "show(a)@500", "hide@900", "show(b)@1401", "hide@3300"]),
    ] as [(TestTime, [String])])
    func hideAfterBridgesBackToBackLoads(order: SameInstantOrder, restart: (TestTime, [String])) async {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let (log, subscription) = spinnerLog(indicator, showAfter: 500, hideAfter: 300, on: scheduler)
        await runLoads([TimedLoad(0, 600, "a"), TimedLoad(restart.0, 3_000, "b")], order: order, on: scheduler, until: 5_000) {
            load, work in
            await indicator.track(message: load.message) { await work.work() }
        }
        #expect(log.current == restart.1, "\(order)")
        subscription.dispose()
    }

    /// Overlapping loads: the spinner shows 500 ms after the first started
    /// (they overlap, so the work is continuous), with the message of the
    /// activity that is visible (the first registered one still running: it
    /// moves on as the earlier ones end), and stays until the last one ends.
    @Test(arguments: SameInstantOrder.allCases) func overlappingLoadsShowTheVisibleActivitysMessage(
        order: SameInstantOrder
    ) async {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let (log, subscription) = spinnerLog(indicator, showAfter: 500, minimumVisible: 500, on: scheduler)
        let loads = [TimedLoad(0, 700, "list"), TimedLoad(300, 1_200, "details"), TimedLoad(1_100, 1_400, "image")]
        await runLoads(loads, order: order, on: scheduler, until: 5_000) { load, work in
            await indicator.track(message: load.message) { await work.work() }
        }
        #expect(log.current == [
            "hide@0", "show(list)@500", "show(details)@700", "show(image)@1200", "hide@1400",
        ], "\(order)")
        subscription.dispose()
    }

    /// Cancelling the view model's task in the middle of its load ends the
    /// activity at that instant, although the work (a sleep) would go on.
    @Test func cancellingTheLoadEndsItsActivityAtThatInstant() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let indicator = ActivityIndicator()
        let (log, subscription) = spinnerLog(indicator, showAfter: 500, minimumVisible: 200, on: scheduler)
        let load = Task {
            try await indicator.track(message: "search") { try await clock.sleep(for: .seconds(10)) }
        }
        let canceller = Task {
            try await clock.sleep(for: .milliseconds(800))
            load.cancel()
        }
        await scheduler.advance(to: 799)
        #expect(indicator.state == ActivityIndicator.State(loading: true, message: "search"))
        await scheduler.advance(to: 800)
        #expect(indicator.state == ActivityIndicator.State(loading: false, message: nil))
        await scheduler.advance(to: 5_000)
        #expect(log.current == ["hide@0", "show(search)@500", "hide@800"])
        #expect(await load.result.isCancellation)
        #expect(scheduler.pendingCount == 0)
        try? await canceller.value
        subscription.dispose()
    }

    /// Cancelled before the minimum ended: the minimum still holds.
    @Test func cancellingBeforeTheMinimumEndsKeepsTheSpinnerForTheMinimum() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let indicator = ActivityIndicator()
        let (log, subscription) = spinnerLog(indicator, showAfter: 500, minimumVisible: 500, on: scheduler)
        let load = Task {
            try await indicator.track(message: "search") { try await clock.sleep(for: .seconds(10)) }
        }
        let canceller = Task {
            try await clock.sleep(for: .milliseconds(600))
            load.cancel()
        }
        await scheduler.advance(to: 5_000)
        #expect(log.current == ["hide@0", "show(search)@500", "hide@1000"])
        #expect(await load.result.isCancellation)
        try? await canceller.value
        subscription.dispose()
    }

    /// Async loads against the same independent model as the Rx tests
    /// (DelayedVisibilityModel), on random back-to-back timelines.
    @Test(arguments: [5, 6] as [UInt64]) func asyncLoadsMatchTheModel(seed: UInt64) async {
        var generator = SeededGenerator(seed: seed)
        var mismatches: [String] = []
        for index in 0..<60 {
            let durations = [0, 50, 100, 150, 200]
            let model = DelayedVisibilityModel(
                showAfter: durations.randomElement(using: &generator) ?? 0,
                minimumVisible: durations.randomElement(using: &generator) ?? 0,
                hideAfter: durations.randomElement(using: &generator) ?? 0)
            // Loads one after the other (a gap of 0 is a stop and a start at
            // the same instant), on a coarse grid with ±1 jitter.
            var loads: [TimedLoad] = []
            var time = Int.random(in: 0...2, using: &generator) * 50
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                var length = 50 * Int.random(in: 1...5, using: &generator)
                if Int.random(in: 0..<3, using: &generator) == 0 { length += Int.random(in: -1...1, using: &generator) }
                loads.append(TimedLoad(TestTime(time), TestTime(time + length)))
                var gap = 50 * Int.random(in: 0...4, using: &generator)
                if gap > 0, Int.random(in: 0..<3, using: &generator) == 0 { gap += Int.random(in: -1...1, using: &generator) }
                time += length + gap
            }
            let inputs = loads.flatMap { [(Int($0.start.frames), true), (Int($0.end.frames), false)] }
            let end = time + 1_000
            let expected = model.timeline(inputs, until: end).split(separator: " ").map(String.init)
            for order in SameInstantOrder.allCases {
                let scheduler = TestScheduler()
                let indicator = ActivityIndicator()
                let (log, subscription) = spinnerLog(
                    indicator, showAfter: model.showAfter, minimumVisible: model.minimumVisible,
                    hideAfter: model.hideAfter, on: scheduler)
                await runLoads(loads, order: order, on: scheduler, until: TestTime(end)) { _, work in
                    await indicator.track(message: nil) { await work.work() }
                }
                subscription.dispose()
                let actual = log.current.map { $0.replacingOccurrences(of: "show(nil)", with: "show") }
                if actual != expected, mismatches.count < 5 {
                    mismatches.append("case \(index) \(order) \(model) \(loads):\n  got      \(actual)\n  expected \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}

@Suite(.checksResourceLeaks) struct ErrorBannerVirtualClockTests {
    /// A view model's failing load: sleeps until `failAt`, then throws into
    /// the tracker with a 1000 ms reset time (swallowed: the banner shows it).
    static func failingLoad(
        _ name: String, at failAt: TestTime, tracker: ErrorTracker, scheduler: TestScheduler
    ) -> Task<Void, Never> {
        let clock = scheduler.virtualClock
        let instant = scheduler.instant(for: failAt)
        return Task {
            await tracker.track(resetAfter: .milliseconds(1000), orElse: ()) {
                try await clock.sleep(until: instant)
                throw NamedError(name)
            }
        }
    }

    /// A second error thrown around the reset deadline of the first one
    /// (thrown at 100 ms, reset due at 1100 ms), both orders: the reset comes
    /// first at the exact instant (`nil`, then the new error).
    @Test(arguments: SameInstantOrder.allCases, [
        (1099, ["nil@0", "first@100", "second@1099", "nil@2099"]),
        (1100, ["nil@0", "first@100", "nil@1100", "second@1100", "nil@2100"]),
        (1101, ["nil@0", "first@100", "nil@1100", "second@1101", "nil@2101"]),
    ] as [(TestTime, [String])])
    func anErrorThrownAroundTheResetDeadline(order: SameInstantOrder, second: (TestTime, [String])) async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let tracker = ErrorTracker(scheduler: scheduler)
        let log = Locked<[String]>([])
        let observation = tracker.subscribe(onNext: { error in
            log.withLock { $0.append("\(error.map { "\($0)" } ?? "nil")@\(scheduler.clock)") }
        })
        var loads: [Task<Void, Never>] = []
        switch order {
        case .inputsFirst:
            // The second load's sleep is on the heap before the reset timer
            // (set at 100 ms, when the first error arrives).
            loads.append(Self.failingLoad("second", at: second.0, tracker: tracker, scheduler: scheduler))
            loads.append(Self.failingLoad("first", at: 100, tracker: tracker, scheduler: scheduler))
        case .timersFirst:
            loads.append(Self.failingLoad("first", at: 100, tracker: tracker, scheduler: scheduler))
            // Starts once the first error (and its reset timer) is in.
            let instant = scheduler.instant(for: 100)
            let next = Task {
                try? await clock.sleep(until: instant)
                await Self.failingLoad("second", at: second.0, tracker: tracker, scheduler: scheduler).value
            }
            loads.append(next)
        }
        await scheduler.advance(to: 1099)
        #expect((tracker.error as? NamedError) == NamedError(second.0 == 1099 ? "second" : "first"))
        await scheduler.advance(to: 5_000)
        for load in loads { await load.value }
        #expect(log.current == second.1, "\(order)")
        observation.dispose()
    }

    /// The banner clears itself 1000 ms after the error; a success clears it
    /// at once; a cancelled load records nothing.
    @Test func theBannerClearsItselfAndASuccessClearsItAtOnce() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let tracker = ErrorTracker(scheduler: scheduler)
        let first = Self.failingLoad("offline", at: 200, tracker: tracker, scheduler: scheduler)
        await scheduler.advance(to: 199)
        #expect(tracker.error == nil)
        await scheduler.advance(to: 200)
        #expect((tracker.error as? NamedError) == NamedError("offline"))
        await first.value
        let retry = Task {
            try await tracker.track(resetAfter: .milliseconds(1000)) {
                try await clock.sleep(for: .milliseconds(300))
                return 42
            }
        }
        await scheduler.advance(to: 499)
        #expect(tracker.error != nil)
        await scheduler.advance(to: 500)
        #expect(tracker.error == nil)
        #expect(try await retry.value == 42)
        let cancelled = Task {
            try await tracker.track(resetAfter: .milliseconds(1000)) { try await clock.sleep(for: .seconds(1)) }
        }
        await scheduler.advance(to: 600)
        cancelled.cancel()
        #expect(await cancelled.result.isCancellation)
        #expect(tracker.error == nil)
        #expect(scheduler.pendingCount == 0)
    }
}

@Suite(.checksResourceLeaks) struct NetworkIndicatorVirtualClockTests {
    /// Overlapping async requests, the last one cancelled in the middle:
    /// A 0–400, B 450–2000, C from 2100, cancelled at 2300. The start delay
    /// (1 s) counts from A's start; the completion delay (200 ms) bridges B
    /// and C, and ends 200 ms after C's cancellation.
    @Test func overlappingRequestsAndACancellationInTheMiddle() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)  // 1 s start, 0.2 s completion
        let changes = manager.recordChanges(on: scheduler)
        func request(from start: TestTime, for length: Duration) -> Task<Void, any Error> {
            let instant = scheduler.instant(for: start)
            return Task {
                try await clock.sleep(until: instant)
                try await manager.track { try await clock.sleep(for: length) }
            }
        }
        let a = request(from: 0, for: .milliseconds(400))
        let b = request(from: 450, for: .milliseconds(1550))
        let c = request(from: 2100, for: .seconds(10))
        let canceller = Task {
            try await clock.sleep(until: scheduler.instant(for: 2300))
            c.cancel()
        }
        var timeline: [String] = []
        for time: TestTime in [0, 400, 450, 999, 1000, 2000, 2100, 2299, 2300, 2499, 2500] {
            await scheduler.advance(to: time)
            timeline.append("\(time): \(manager.activityCount) \(manager.isNetworkActivityIndicatorVisible ? "visible" : "hidden")")
        }
        #expect(timeline == [
            "0: 1 hidden", "400: 0 hidden", "450: 1 hidden", "999: 1 hidden", "1000: 1 visible", "2000: 0 visible",
            "2100: 1 visible", "2299: 1 visible", "2300: 0 visible", "2499: 0 visible", "2500: 0 hidden",
        ])
        #expect(changes.current == [VisibilityChange(1000, true), VisibilityChange(2500, false)])
        try await a.value
        try await b.value
        #expect(await c.result.isCancellation)
        try await canceller.value
        #expect(scheduler.pendingCount == 0)
    }

    /// A request that stops around the start deadline (1000 ms): at exactly
    /// 1000 ms it was still running, so the indicator shows, and hides 200 ms
    /// later.
    @Test(arguments: SameInstantOrder.allCases, [
        (999, [] as [VisibilityChange]),
        (1000, [VisibilityChange(1000, true), VisibilityChange(1200, false)]),
        (1001, [VisibilityChange(1000, true), VisibilityChange(1201, false)]),
    ] as [(TestTime, [VisibilityChange])])
    func aRequestStoppingAroundTheStartDeadline(order: SameInstantOrder, stop: (TestTime, [VisibilityChange])) async {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)
        let changes = manager.recordChanges(on: scheduler)
        await runLoads([TimedLoad(0, stop.0)], order: order, on: scheduler, until: 5_000) { _, work in
            await manager.track { await work.work() }
        }
        #expect(changes.current == stop.1, "\(order)")
        #expect(manager.activityCount == 0)
    }

    /// A request starting around the completion deadline of an earlier one
    /// (0–1500 ms, so hidden at 1700 ms): at exactly 1700 ms it is too late,
    /// the indicator hides and the new request waits a new start delay.
    @Test(arguments: SameInstantOrder.allCases, [
        (1699, [VisibilityChange(1000, true), VisibilityChange(3200, false)]),
        (1700, [VisibilityChange(1000, true), VisibilityChange(1700, false),
                VisibilityChange(2700, true), VisibilityChange(3200, false)]),
        (1701, [VisibilityChange(1000, true), VisibilityChange(1700, false),
                VisibilityChange(2701, true), VisibilityChange(3200, false)]),
    ] as [(TestTime, [VisibilityChange])])
    func aRequestStartingAroundTheCompletionDeadline(order: SameInstantOrder, start: (TestTime, [VisibilityChange])) async {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)
        let changes = manager.recordChanges(on: scheduler)
        await runLoads([TimedLoad(0, 1_500), TimedLoad(start.0, 3_000)], order: order, on: scheduler, until: 5_000) {
            _, work in
            await manager.track { await work.work() }
        }
        #expect(changes.current == start.1, "\(order)")
    }

    /// The start delay counts from the first start (Alamofire's rule), even
    /// across a gap: A 0–400 and B 450–700 show the indicator at 1000 ms.
    @Test(arguments: SameInstantOrder.allCases) func theStartDelayCountsFromTheFirstStart(order: SameInstantOrder) async {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)
        let changes = manager.recordChanges(on: scheduler)
        await runLoads([TimedLoad(0, 400), TimedLoad(450, 1_100)], order: order, on: scheduler, until: 5_000) {
            _, work in
            await manager.track { await work.work() }
        }
        #expect(changes.current == [VisibilityChange(1000, true), VisibilityChange(1300, false)], "\(order)")
    }
}

extension Result {
    /// Whether this is a failure with `CancellationError`.
    var isCancellation: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}
