import Foundation
import Testing
import TickIndicators
import TickTesting

/// The order in which an input and a deadline at the same instant reach the
/// state machine: inputs scheduled before the timer (the machine catches the
/// deadline up itself), or the timer first. The results must not differ.
enum SameInstantOrder: CaseIterable, CustomStringConvertible {
    case inputsFirst, timersFirst
    var description: String { self == .inputsFirst ? "inputs first" : "timers first" }
}

/// Feeds `inputs` ("is working" values at frame times, in time order) to
/// `delayedVisibility` and returns the output as `show@T` / `hide@T` /
/// `done@T` words (the initial `hide@0` of the subscription included).
///
/// With ``SameInstantOrder/inputsFirst`` every input is scheduled before the
/// subscription, so at an instant shared with a deadline it runs before the
/// timer. With ``SameInstantOrder/timersFirst`` each input is scheduled by
/// the action of the one before it (after that input set its timer), so the
/// timer runs first.
func visibilityTimeline(
    _ inputs: [(TestTime, Bool)], showAfter: Int, minimumVisible: Int = 0, hideAfter: Int = 0,
    order: SameInstantOrder, completeAt: TestTime? = nil, disposeAt: TestTime? = nil, until: TestTime = 10_000
) -> String {
    let scheduler = TestScheduler()
    let source = PublishSubject<Bool>()
    var steps: [(TestTime, () -> Void)] = inputs.map { time, value in (time, { source.onNext(value) }) }
    if let completeAt { steps.append((completeAt, { source.onCompleted() })) }
    steps.sort { $0.0 < $1.0 }
    let observer = scheduler.createObserver(Bool.self)
    var actions: [any Disposable] = []
    if order == .inputsFirst {
        for (time, action) in steps { actions.append(scheduler.scheduleAt(time, action: action)) }
    }
    let subscription = source.delayedVisibility(
        showAfter: .milliseconds(showAfter), minimumVisible: .milliseconds(minimumVisible),
        hideAfter: .milliseconds(hideAfter), scheduler: scheduler
    ).subscribe(observer)
    if let disposeAt { actions.append(scheduler.scheduleAt(disposeAt) { subscription.dispose() }) }
    if order == .timersFirst {
        func scheduleStep(_ index: Int) {
            guard index < steps.count else { return }
            let (time, action) = steps[index]
            _ = scheduler.scheduleAt(time) {
                action()
                scheduleStep(index + 1)
            }
        }
        scheduleStep(0)
    }
    scheduler.advance(to: until)
    subscription.dispose()
    for action in actions { action.dispose() }
    return words(observer.events)
}

func words(_ events: [Recorded<Event<Bool>>]) -> String {
    events.map { recorded in
        switch recorded.value {
        case .next(let visible): "\(visible ? "show" : "hide")@\(recorded.time)"
        case .completed: "done@\(recorded.time)"
        case .error(let error): "error(\(error))@\(recorded.time)"
        }
    }.joined(separator: " ")
}

@Suite(.checksResourceLeaks) struct DelayedVisibilityTests {
    // MARK: showAfter

    @Test(arguments: SameInstantOrder.allCases) func workThatEndsAroundShowAfter(order: SameInstantOrder) {
        func run(stop: TestTime, minimum: Int) -> String {
            visibilityTimeline([(100, true), (stop, false)], showAfter: 500, minimumVisible: minimum, order: order)
        }
        // Started at 100: the show deadline is 600.
        #expect(run(stop: 599, minimum: 500) == "hide@0")
        // Deadline first: still working at 600, so it shows, and stays for the minimum.
        #expect(run(stop: 600, minimum: 500) == "hide@0 show@600 hide@1100")
        #expect(run(stop: 601, minimum: 500) == "hide@0 show@600 hide@1100")
        // Without a minimum: shown and hidden at the same instant, or one frame later.
        #expect(run(stop: 600, minimum: 0) == "hide@0 show@600 hide@600")
        #expect(run(stop: 601, minimum: 0) == "hide@0 show@600 hide@601")
    }

    @Test(arguments: SameInstantOrder.allCases) func showAfterNeedsContinuousWork(order: SameInstantOrder) {
        // A gap restarts the delay, however short (unlike the network
        // indicator, whose start delay counts from the first start).
        #expect(visibilityTimeline(
            [(0, true), (400, false), (450, true), (2000, false)], showAfter: 500, order: order)
            == "hide@0 show@950 hide@2000")
        // A stop and a start at the same instant are a gap too.
        #expect(visibilityTimeline(
            [(0, true), (400, false), (400, true), (2000, false)], showAfter: 500, order: order)
            == "hide@0 show@900 hide@2000")
        // Repeated "working" values change nothing.
        #expect(visibilityTimeline(
            [(0, true), (200, true), (400, true), (2000, false)], showAfter: 500, order: order)
            == "hide@0 show@500 hide@2000")
    }

    @Test func zeroShowAfterShowsAtOnce() {
        #expect(visibilityTimeline([(10, true), (20, false)], showAfter: 0, order: .inputsFirst)
            == "hide@0 show@10 hide@20")
        #expect(visibilityTimeline([(10, true), (20, false)], showAfter: 0, minimumVisible: 100, order: .inputsFirst)
            == "hide@0 show@10 hide@110")
    }

    // MARK: minimumVisible

    @Test(arguments: SameInstantOrder.allCases) func workThatStartsAroundTheEndOfTheMinimum(order: SameInstantOrder) {
        // Shown at 500, work stopped at 600: the minimum ends at 1000.
        func run(restart: TestTime) -> String {
            visibilityTimeline(
                [(0, true), (600, false), (restart, true), (3000, false)], showAfter: 500, minimumVisible: 500,
                order: order)
        }
        #expect(run(restart: 999) == "hide@0 show@500 hide@3000")
        // Deadline first: it hides at 1000, and the new work waits a full delay.
        #expect(run(restart: 1000) == "hide@0 show@500 hide@1000 show@1500 hide@3000")
        #expect(run(restart: 1001) == "hide@0 show@500 hide@1000 show@1501 hide@3000")
    }

    @Test(arguments: SameInstantOrder.allCases) func theMinimumCountsFromWhenItShowed(order: SameInstantOrder) {
        // Work stops at 800, after 300 visible: 200 more for the minimum.
        #expect(visibilityTimeline([(0, true), (800, false)], showAfter: 500, minimumVisible: 500, order: order)
            == "hide@0 show@500 hide@1000")
        // Work longer than the minimum hides when it stops.
        #expect(visibilityTimeline([(0, true), (1200, false)], showAfter: 500, minimumVisible: 500, order: order)
            == "hide@0 show@500 hide@1200")
        // Work that stops exactly when the minimum ends hides then.
        #expect(visibilityTimeline([(0, true), (1000, false)], showAfter: 500, minimumVisible: 500, order: order)
            == "hide@0 show@500 hide@1000")
    }

    // MARK: hideAfter

    @Test(arguments: SameInstantOrder.allCases) func hideAfterBridgesBackToBackWork(order: SameInstantOrder) {
        // Shown at 500, stopped at 600: hides at max(500 + 0, 600 + 300) = 900.
        func run(restart: TestTime) -> String {
            visibilityTimeline(
                [(0, true), (600, false), (restart, true), (2000, false)], showAfter: 500, hideAfter: 300,
                order: order)
        }
        #expect(run(restart: 899) == "hide@0 show@500 hide@2300")
        #expect(run(restart: 900) == "hide@0 show@500 hide@900 show@1400 hide@2300")
        #expect(run(restart: 901) == "hide@0 show@500 hide@900 show@1401 hide@2300")
    }

    @Test(arguments: SameInstantOrder.allCases) func theLaterOfMinimumAndHideAfterWins(order: SameInstantOrder) {
        // Shown at 500; stopped at 550: minimum until 1000, grace until 850.
        #expect(visibilityTimeline(
            [(0, true), (550, false)], showAfter: 500, minimumVisible: 500, hideAfter: 300, order: order)
            == "hide@0 show@500 hide@1000")
        // Stopped at 900: minimum until 1000, grace until 1200.
        #expect(visibilityTimeline(
            [(0, true), (900, false)], showAfter: 500, minimumVisible: 500, hideAfter: 300, order: order)
            == "hide@0 show@500 hide@1200")
        // Each stop restarts the grace period; a restart inside it cancels it.
        #expect(visibilityTimeline(
            [(0, true), (900, false), (1100, true), (1150, false)], showAfter: 500, minimumVisible: 500,
            hideAfter: 300, order: order)
            == "hide@0 show@500 hide@1450")
    }

    @Test func hideAfterDoesNotBridgeGapsBeforeShowing() {
        // While hidden, a gap restarts showAfter even with a grace period.
        #expect(visibilityTimeline(
            [(0, true), (400, false), (450, true), (2000, false)], showAfter: 500, hideAfter: 300, order: .inputsFirst)
            == "hide@0 show@950 hide@2300")
    }

    // MARK: Disposal, completion, errors, misuse

    @Test(arguments: SameInstantOrder.allCases) func disposalInTheMiddleStopsEverything(order: SameInstantOrder) {
        // While waiting to show: nothing more, even at the deadline.
        #expect(visibilityTimeline([(0, true)], showAfter: 500, order: order, disposeAt: 499) == "hide@0")
        // At the deadline, disposal scheduled before the timer: the disposal runs first.
        #expect(visibilityTimeline([(0, true)], showAfter: 500, order: order, disposeAt: 500) == "hide@0")
        // While visible, with a pending minimum: no hide is emitted after disposal.
        #expect(visibilityTimeline(
            [(0, true), (600, false)], showAfter: 500, minimumVisible: 500, order: order, disposeAt: 700)
            == "hide@0 show@500")
    }

    @Test(arguments: SameInstantOrder.allCases) func completionEndsTheWorkAndCompletesOnceHidden(order: SameInstantOrder) {
        // Completing while visible: hidden at the minimum's end, then done.
        #expect(visibilityTimeline([(0, true)], showAfter: 500, minimumVisible: 500, order: order, completeAt: 700)
            == "hide@0 show@500 hide@1000 done@1000")
        // Completing while waiting: done at once.
        #expect(visibilityTimeline([(0, true)], showAfter: 500, order: order, completeAt: 300) == "hide@0 done@300")
        // Completing at the show deadline: the deadline comes first.
        #expect(visibilityTimeline([(0, true)], showAfter: 500, minimumVisible: 100, order: order, completeAt: 500)
            == "hide@0 show@500 hide@600 done@600")
    }

    @Test func anErrorIsForwardedAtOnce() {
        let scheduler = TestScheduler()
        let source = scheduler.createHotObservable([.next(100, true), .error(700, TestError(1))])
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 5000) {
            source.delayedVisibility(showAfter: .milliseconds(500), minimumVisible: .milliseconds(500), scheduler: scheduler)
        }
        #expect(observer.events == [.next(0, false), .next(600, true), .error(700, TestError(1))])
    }

    @Test func negativeDurationsAreReportedAndBecomeZero() {
        let reports = Locked<[String]>([])
        let previous = Misuse.setHandler { report in reports.withLock { $0.append(report.message) } }
        let scheduler = TestScheduler()
        let visibility = PublishSubject<Bool>().delayedVisibility(
            showAfter: .milliseconds(-1), minimumVisible: .milliseconds(-2), hideAfter: .milliseconds(-3),
            scheduler: scheduler)
        Misuse.setHandler(previous)
        #expect(reports.current.count == 3)
        #expect(reports.current.first?.contains("showAfter") == true)
        _ = visibility
    }
}

/// The rule on an `ActivityIndicator`: visibility plus the visible message.
@Suite(.checksResourceLeaks) struct DelayedIndicatorVisibilityTests {
    /// Tracks one piece of work per entry (message, start, end: it completes
    /// at `end`, unless `disposeWorkAt` disposes it first) and records the
    /// delayed states as `(loading, message)@T` words. With
    /// ``SameInstantOrder/timersFirst`` each start, end or disposal is
    /// scheduled by the one before it, after that one set its timers.
    func timeline(
        _ work: [(String?, TestTime, TestTime)], showAfter: Int = 500, minimumVisible: Int = 500, hideAfter: Int = 0,
        disposeWorkAt: [Int: TestTime] = [:], order: SameInstantOrder = .inputsFirst
    ) -> [String] {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let states = scheduler.createObserver(IndicatorState.self)
        let bag = DisposeBag()
        indicator.delayedVisibility(
            showAfter: .milliseconds(showAfter), minimumVisible: .milliseconds(minimumVisible),
            hideAfter: .milliseconds(hideAfter), scheduler: scheduler
        ).subscribe(states).disposed(by: bag)
        var steps: [(TestTime, () -> Void)] = []
        for (index, (message, start, end)) in work.enumerated() {
            let source = PublishSubject<Int>()
            let subscription = SerialDisposable()
            bag.insert(subscription)
            steps.append((start, { subscription.disposable = source.trackActivity(in: indicator, message: message).subscribe() }))
            steps.append((end, { source.onCompleted() }))
            if let disposeAt = disposeWorkAt[index] { steps.append((disposeAt, { subscription.dispose() })) }
        }
        steps = steps.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        switch order {
        case .inputsFirst:
            for (time, action) in steps { bag.insert(scheduler.scheduleAt(time, action: action)) }
        case .timersFirst:
            func scheduleStep(_ index: Int) {
                guard index < steps.count else { return }
                let (time, action) = steps[index]
                _ = scheduler.scheduleAt(time) {
                    action()
                    scheduleStep(index + 1)
                }
            }
            scheduleStep(0)
        }
        scheduler.advance(to: 10_000)
        bag.dispose()
        return states.events.map { recorded in
            guard case .next(let state) = recorded.value else { return "\(recorded)" }
            return "(\(state.loading), \(state.message ?? "nil"))@\(recorded.time)"
        }
    }

    @Test(arguments: SameInstantOrder.allCases) func overlappingActivitiesShowTheMessageOfTheVisibleOne(
        order: SameInstantOrder
    ) {
        // A 0–700, B 300–1200: continuous work from 0; A's message first, B's once A ends.
        #expect(timeline([("A", 0, 700), ("B", 300, 1200)], order: order) == [
            "(false, nil)@0", "(true, A)@500", "(true, B)@700", "(false, nil)@1200",
        ])
        // A ends exactly when B starts (in that order): a gap of zero length
        // before the spinner showed restarts the delay.
        #expect(timeline([("A", 0, 300), ("B", 300, 1200)], order: order) == [
            "(false, nil)@0", "(true, B)@800", "(false, nil)@1300",
        ])
        // B starts before A ends at the same instant: continuous work (shown
        // at 500 with B's message, A having ended).
        #expect(timeline([("B", 300, 1200), ("A", 0, 300)], order: order) == [
            "(false, nil)@0", "(true, B)@500", "(false, nil)@1200",
        ])
    }

    @Test(arguments: SameInstantOrder.allCases) func anActivityEndingAroundShowAfter(order: SameInstantOrder) {
        #expect(timeline([("A", 0, 499)], order: order) == ["(false, nil)@0"])
        #expect(timeline([("A", 0, 500)], order: order) == ["(false, nil)@0", "(true, A)@500", "(false, nil)@1000"])
        #expect(timeline([("A", 0, 501)], order: order) == ["(false, nil)@0", "(true, A)@500", "(false, nil)@1000"])
    }

    @Test(arguments: SameInstantOrder.allCases) func anActivityStartingAroundTheEndOfTheMinimum(order: SameInstantOrder) {
        // A 0–600 shown at 500: the minimum ends at 1000; B starts at 999, 1000 or 1001.
        #expect(timeline([("A", 0, 600), ("B", 999, 2000)], order: order) == [
            "(false, nil)@0", "(true, A)@500", "(true, B)@999", "(false, nil)@2000",
        ])
        #expect(timeline([("A", 0, 600), ("B", 1000, 2000)], order: order) == [
            "(false, nil)@0", "(true, A)@500", "(false, nil)@1000", "(true, B)@1500", "(false, nil)@2000",
        ])
        #expect(timeline([("A", 0, 600), ("B", 1001, 2000)], order: order) == [
            "(false, nil)@0", "(true, A)@500", "(false, nil)@1000", "(true, B)@1501", "(false, nil)@2001",
        ])
    }

    @Test func theLastMessageStaysWhileTheMinimumKeepsItUp() {
        // A 0–400 ends before showing; B 450–1000 shows at 950 and stays until 1450 with its message.
        #expect(timeline([("A", 0, 400), ("B", 450, 1000)]) == [
            "(false, nil)@0", "(true, B)@950", "(false, nil)@1450",
        ])
        // New work during the minimum brings its own message.
        #expect(timeline([("A", 0, 600), ("C", 800, 1500)]) == [
            "(false, nil)@0", "(true, A)@500", "(true, C)@800", "(false, nil)@1500",
        ])
    }

    @Test(arguments: SameInstantOrder.allCases) func disposingTrackedWorkEndsItsActivityAtThatInstant(
        order: SameInstantOrder
    ) {
        // Work 0–5000 disposed at 499, 500 and 501 (showAfter 500, no minimum).
        #expect(timeline([("A", 0, 5000)], minimumVisible: 0, disposeWorkAt: [0: 499], order: order) == ["(false, nil)@0"])
        #expect(timeline([("A", 0, 5000)], minimumVisible: 0, disposeWorkAt: [0: 500], order: order) == [
            "(false, nil)@0", "(true, A)@500", "(false, nil)@500",
        ])
        #expect(timeline([("A", 0, 5000)], minimumVisible: 0, disposeWorkAt: [0: 501], order: order) == [
            "(false, nil)@0", "(true, A)@500", "(false, nil)@501",
        ])
        // Disposed while the minimum keeps the spinner up: no change.
        #expect(timeline([("A", 0, 5000)], disposeWorkAt: [0: 700], order: order) == [
            "(false, nil)@0", "(true, A)@500", "(false, nil)@1000",
        ])
    }

    @Test func workRunningAtSubscriptionCountsFromTheSubscription() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator(defaultMessage: "busy")
        let work = Observable<Int>.never().trackActivity(in: indicator).subscribe()
        let observer = scheduler.start(created: 0, subscribed: 200, disposed: 2000) {
            indicator.delayedVisibility(showAfter: .milliseconds(500), scheduler: scheduler)
        }
        #expect(observer.events == [.next(200, state(false, nil)), .next(700, state(true, "busy"))])
        work.dispose()
    }
}

/// The delayed-spinner rule as a marble diagram (one frame = 100 ms), and
/// the picture of it in Docs/images, drawn by the marble renderer.
@Suite(.checksResourceLeaks) struct DelayedSpinnerPictureTests {
    static let frame = Duration.milliseconds(100)
    /// A fast load (0–300 ms) and a slow one (500–1200 ms).
    static let working = "t--f-t------f"
    /// showAfter 500 ms, minimumVisible 500 ms: shown at 1000, hidden at 1500.
    static let visible = "f---------t----f"

    @Test func theDiagramHolds() {
        let scheduler = TestScheduler(frame: Self.frame)
        let source = scheduler.hot(Self.working).map { $0 == "t" }
        let spinner = source.delayedVisibility(
            showAfter: .milliseconds(500), minimumVisible: .milliseconds(500), scheduler: scheduler)
        scheduler.expect(spinner.map { $0 ? "t" : "f" }).toBe(Self.visible)
        scheduler.flush()
    }

    /// Set TICK_REGENERATE_GALLERY=1 to write the file instead (then commit it).
    @Test func committedPictureMatchesTheRenderer() throws {
        let svg = try Marbles.svg([Self.working, Self.visible], .hot, frame: Self.frame)
        let url = ActivityIndicatorButtonGallery.imagesDirectory().appendingPathComponent("delayed-spinner.svg")
        if ProcessInfo.processInfo.environment["TICK_REGENERATE_GALLERY"] == "1" {
            try Data(svg.utf8).write(to: url)
            return
        }
        let committed = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
        #expect(committed == svg, "Docs/images/delayed-spinner.svg drifted: run with TICK_REGENERATE_GALLERY=1 and commit it.")
    }
}
