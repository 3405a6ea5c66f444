import Testing
import Tick

/// Marble tests on a ``TestScheduler``, RxJS style:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let source = scheduler.cold("-a-b-|")
/// scheduler.expect(source.map { $0.uppercased() }).toBe("-A-B-|")
/// scheduler.expectSubscriptions(source.subscriptions).toBe("^----!")
/// scheduler.flush()
/// ```
///
/// ## Time rules
/// - Frames are the scheduler's ``TestScheduler/frame``.
/// - Hot diagrams, expected diagrams and subscription diagrams use absolute
///   times: frame 0 is the scheduler's time 0 (for a hot diagram, its `^`).
///   Hot events before the scheduler's current time are never emitted.
/// - Cold diagrams are relative to each subscription.
/// - `expect` subscribes at the subscription diagram's `^` (time 0 without
///   one) and disposes at its `!`, or when the source ends, or at the end of
///   the flush (after the checks), whichever comes first.
/// - Expectations are checked by ``TestScheduler/flush(fileID:filePath:line:column:)``
///   and by ``TestScheduler/run(fileID:filePath:line:column:)`` (the same
///   thing) after all scheduled work has run; `advance(to:)`/`advance(by:)`
///   never check, because time may not be over. An expectation is checked
///   once. One never checked fails at its line when the scheduler is
///   released (at the end of a test that let go of it, Swift Testing or
///   XCTest) or when the test ends (XCTest, or Swift Testing with the
///   `.checksResourceLeaks` trait), whichever comes first. A scheduler kept
///   alive by the observable under test (a time operator given it) is not
///   released: under Swift Testing without the trait, its unchecked
///   expectations are written to standard error at process exit, at their
///   lines, and the process fails. ``run(_:fileID:filePath:line:column:)``
///   cannot forget.
/// - Hot observables made with ``hot(_:values:error:fileID:filePath:line:column:)``
///   are set up when the scheduler next runs, as in RxJS: an `expect`
///   subscription or unsubscription made before comes first within a frame.
///   ``createHotObservable(_:)`` keeps RxTest's order (set up at creation).
/// - A failure is reported at the line of `toBe`, to Swift Testing or XCTest,
///   whichever runs the test, with the aligned diff of ``Marbles/diff(expected:actual:frame:)``.
/// - A diagram that cannot be read is reported at the caller's line with its
///   ``MarbleError`` message; the observable then has no events.
extension TestScheduler {
    /// A cold test observable from a diagram: each subscription replays its
    /// events relative to the moment of subscription.
    ///
    /// - Parameters:
    ///   - diagram: a cold observable diagram (no `^`).
    ///   - values: the element of each marker; empty = the markers are the
    ///     elements (String/Character element types only).
    ///   - error: the error of `#`.
    public func cold<Element>(
        _ diagram: String, values: [Character: Element], error: any Error = TestError(),
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdObservable<Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return createColdObservable(events(diagram, .cold, values: values, error: error, site: site))
    }

    /// A cold test observable of `String` markers: `cold("-a-b|")`.
    public func cold(
        _ diagram: String, error: any Error = TestError(),
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdObservable<String> {
        cold(diagram, values: [:], error: error, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A hot test observable from a diagram: its events happen at absolute
    /// times (frame 0 = the `^`, or the start of the text) whether or not
    /// anyone is subscribed.
    ///
    /// As in RxJS, its events are scheduled when the scheduler next runs
    /// (`flush`, `run`, `advance`), so an `expect` subscription or
    /// unsubscription stated before comes first within a frame:
    /// `expect(hot("a-b|")).toBe("a-b|")` holds. ``createHotObservable(_:)``
    /// schedules at creation instead (RxTest's order).
    public func hot<Element>(
        _ diagram: String, values: [Character: Element], error: any Error = TestError(),
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotObservable<Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return HotObservable(deferredOn: self, events: events(diagram, .hot, values: values, error: error, site: site))
    }

    /// A hot test observable of `String` markers: `hot("-a-^-b|")`.
    public func hot(
        _ diagram: String, error: any Error = TestError(),
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotObservable<String> {
        hot(diagram, values: [:], error: error, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The duration of `diagram` up to its single `|`, in this scheduler's
    /// frames: `time("---|")` is 3 frames. A diagram that cannot be read is
    /// reported as a failure and gives zero.
    public func time(
        _ diagram: String,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Duration {
        do {
            return try Marbles.time(diagram, frame: frame)
        } catch {
            TestFailureReporter.fail(
                error.description, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            return .zero
        }
    }

    /// Subscribes to `source` as `subscription` says and records what it
    /// emits, for a later ``MarbleExpectation/toBe(_:values:error:fileID:filePath:line:column:)``.
    ///
    /// - Parameter subscription: a subscription diagram, e.g. `"^---!"`;
    ///   `nil` subscribes at time 0 and keeps the subscription until the
    ///   expectations are checked.
    public func expect<Source: ObservableType>(
        _ source: Source, subscription: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleExpectation<Source.Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        var plan = Subscription(0)
        if let subscription {
            do {
                plan = try Marbles.parseSubscription(subscription, frame: frame)
            } catch {
                TestFailureReporter.fail(error.description, at: site)
            }
        }
        let recorder = record(source, plan: plan)
        return MarbleExpectation(
            scheduler: self, recorder: recorder, mirror: { other in self.record(other, plan: plan) })
    }

    /// Subscribes to `source` as `plan` says, recording what it emits.
    func record<Source: ObservableType>(_ source: Source, plan: Subscription) -> MarbleRecorder<Source.Element> {
        let recorder = MarbleRecorder<Source.Element>(scheduler: self)
        let resources = CompositeDisposable()
        let live = SerialDisposable()
        _ = resources.insert(live)
        // Like an RxJS subscriber, the expectation lets go of its source when
        // the source ends, so the subscription log shows the end.
        let observer = AnyObserver<Source.Element>(eventHandler: { event in
            recorder.on(event)
            if event.isStopEvent { live.dispose() }
        })
        _ = resources.insert(scheduleAt(plan.subscribe) { live.disposable = source.subscribe(observer) })
        if let end = plan.unsubscribe {
            _ = resources.insert(scheduleAt(end) { live.dispose() })
        }
        marbleExpectations.add(cleanup: { resources.dispose() })
        return recorder
    }

    /// Captures a subscription log to compare at flush time. Pass the
    /// observable's `subscriptions` property: it is read when the
    /// expectations are checked, not now.
    public func expectSubscriptions(
        _ subscriptions: @autoclosure @escaping () -> [Subscription]
    ) -> SubscriptionExpectation {
        SubscriptionExpectation(scheduler: self, read: subscriptions)
    }

    /// Runs all scheduled work (like ``run(fileID:filePath:line:column:)``),
    /// then checks every pending marble expectation and disposes the
    /// subscriptions `expect` made. The RxJS name for ``run(fileID:filePath:line:column:)``.
    public func flush(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        run(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// RxJS's `run`: calls `body` with this scheduler to create observables
    /// and state expectations, then flushes, so every expectation is
    /// checked and none can be forgotten.
    ///
    /// ```swift
    /// TestScheduler().run { helpers in
    ///     let source = helpers.hot("a-b|")
    ///     helpers.expect(source).toBe("a-b|")
    /// }
    /// ```
    public func run(
        _ body: (TestScheduler) throws -> Void,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) rethrows {
        try body(self)
        flush(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    private func events<Element>(
        _ diagram: String, _ temperature: Marbles.Temperature, values: [Character: Element], error: any Error,
        site: CallSite
    ) -> [Recorded<Event<Element>>] {
        do {
            return try Marbles.parse(diagram, temperature, values: values, error: error, frame: frame)
        } catch {
            TestFailureReporter.fail(error.description, at: site)
            return []
        }
    }
}

/// What `expect(observable)` recorded, waiting for its expected diagram.
public struct MarbleExpectation<Element> {
    let scheduler: TestScheduler
    /// What the source emitted so far (read when the expectation is checked).
    let recorded: () -> [Recorded<Event<Element>>]
    /// Subscribes another observable exactly as the expectation's source was
    /// (for ``toEqual(_:fileID:filePath:line:column:)``).
    let mirror: (Observable<Element>) -> MarbleRecorder<Element>

    init(
        scheduler: TestScheduler, recorder: MarbleRecorder<Element>,
        mirror: @escaping (Observable<Element>) -> MarbleRecorder<Element>
    ) {
        self.scheduler = scheduler
        self.recorded = { recorder.events }
        self.mirror = mirror
    }

    init(
        scheduler: TestScheduler, recorder: TestableObserver<Element>,
        mirror: @escaping (Observable<Element>) -> MarbleRecorder<Element>
    ) {
        self.scheduler = scheduler
        self.recorded = { recorder.events }
        self.mirror = mirror
    }

    /// Expects the recorded events to be `diagram` (absolute times; an
    /// optional `^` marks frame 0). Checked at the next `flush()`/`run()`; a
    /// mismatch fails at this line with the aligned diff.
    ///
    /// - Returns: the outcome, filled in when the expectation is checked.
    @discardableResult
    public func toBe(
        _ diagram: String, values: [Character: Element] = [:], error: any Error = TestError(),
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleResult<Element> where Element: Equatable {
        toBe(diagram, values: values, error: error, by: ==, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects the recorded events to be `diagram`, comparing elements with
    /// `areEqual` (for elements that are not `Equatable`, or a looser
    /// comparison). Errors always compare by ``errorsAreEqual(_:_:)``.
    ///
    /// ```swift
    /// scheduler.expect(errors).toBe("-a-", values: ["a": TestError(1)], by: errorsAreEqual)
    /// ```
    @discardableResult
    public func toBe(
        _ diagram: String, values: [Character: Element] = [:], error: any Error = TestError(),
        by areEqual: @escaping (Element, Element) -> Bool,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleResult<Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let result = MarbleResult<Element>()
        let expected: [Recorded<Event<Element>>]
        do {
            expected = try Marbles.parse(diagram, .hot, values: values, error: error, frame: scheduler.frame)
        } catch {
            TestFailureReporter.fail(error.description, at: site)
            result.finish(recorded: [], expected: [], diff: error.description)
            return result
        }
        let recorded = self.recorded
        check(result, site: site, values: values, areEqual: areEqual) { (expected, recorded()) }
        return result
    }

    /// Expects the recorded events to be `diagram`, for observables of errors
    /// (an error tracker's output, say): elements compare by
    /// ``errorsAreEqual(_:_:)``, Tick's rule for errors.
    @discardableResult
    public func toBe(
        _ diagram: String, values: [Character: any Error], error: any Error = TestError(),
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleResult<Element> where Element == any Error {
        toBe(
            diagram, values: values, error: error, by: errorsAreEqual,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects the same timeline as `other`, subscribed to at the same times
    /// as this expectation's source (RxJS's `toEqual`). Checked at the next
    /// `flush()`/`run()`; a mismatch fails at this line, `other` printed as
    /// "expected".
    @discardableResult
    public func toEqual<Other: ObservableType>(
        _ other: Other,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleResult<Element> where Other.Element == Element, Element: Equatable {
        toEqual(other, by: ==, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``toEqual(_:fileID:filePath:line:column:)`` comparing elements with
    /// `areEqual`; errors compare by ``errorsAreEqual(_:_:)``.
    @discardableResult
    public func toEqual<Other: ObservableType>(
        _ other: Other, by areEqual: @escaping (Element, Element) -> Bool,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleResult<Element> where Other.Element == Element {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let result = MarbleResult<Element>()
        let otherRecorder = mirror(other.asObservable())
        let recorded = self.recorded
        check(result, site: site, values: [:], areEqual: areEqual) { (otherRecorder.events, recorded()) }
        return result
    }

    private func check(
        _ result: MarbleResult<Element>, site: CallSite, values: [Character: Element],
        areEqual: @escaping (Element, Element) -> Bool,
        timelines: @escaping () -> (expected: [Recorded<Event<Element>>], actual: [Recorded<Event<Element>>])
    ) {
        let frame = scheduler.frame
        scheduler.marbleExpectations.add(site: site) {
            let (expected, actual) = timelines()
            // The common case, a match, needs no diagrams: only a mismatch
            // pays for wrapping the elements and laying out the diff.
            if Self.sameTimeline(expected, actual, by: areEqual) {
                result.finish(recorded: actual, expected: expected, diff: nil)
                return
            }
            let wrap = { (events: [Recorded<Event<Element>>]) in
                events.map { Recorded(time: $0.time, value: $0.value.map { Compared(value: $0, areEqual: areEqual) }) }
            }
            let (left, right) = (wrap(expected), wrap(actual))
            let diff = Marbles.diff(
                expected: left, actual: right,
                values: values.mapValues { Compared(value: $0, areEqual: areEqual) }, frame: frame)
            if diff.isEqual {
                result.finish(recorded: actual, expected: expected, diff: nil)
                return
            }
            result.finish(recorded: actual, expected: expected, diff: diff.description)
            TestFailureReporter.fail(
                TestFailure(title: diff.title, message: "marble expectation failed\n\(diff.description)", site: site))
        }
    }
}

extension MarbleExpectation {
    /// Whether two timelines are equal, elements compared by `areEqual` and
    /// errors by ``errorsAreEqual(_:_:)``: what `==` on the timelines of
    /// `Compared` elements says, without building them.
    static func sameTimeline(
        _ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>], by areEqual: (Element, Element) -> Bool
    ) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Indices rather than `zip`: this code is not specialized for the
        // element type, and a generic `zip` iterator costs far more per step.
        for index in lhs.indices {
            let (left, right) = (lhs[index], rhs[index])
            guard left.time == right.time else { return false }
            switch (left.value, right.value) {
            case (.next(let l), .next(let r)): guard areEqual(l, r) else { return false }
            case (.error(let l), .error(let r)): guard errorsAreEqual(l, r) else { return false }
            case (.completed, .completed): continue
            default: return false
            }
        }
        return true
    }
}

/// An element compared by a test's own rule, so the `Equatable` diff and
/// printer can lay it out.
struct Compared<Value>: Equatable, CustomStringConvertible {
    let value: Value
    let areEqual: (Value, Value) -> Bool

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.areEqual(lhs.value, rhs.value) }
    var description: String { String(describing: value) }
}

extension Compared: MarbleLegendValue {
    var legendValue: Any { value }
}

/// The outcome of one marble expectation, for code that drives Tick outside
/// a test runner (or wants to look closer): filled in when the expectation is
/// checked by `flush()`/`run()`.
///
/// ```swift
/// let result = scheduler.expect(source).toBe("-a-|")
/// scheduler.flush()
/// // result.isChecked == true, result.passed == (result.diff == nil)
/// ```
public final class MarbleResult<Element> {
    // Written once by the check, read by the test; `lock` makes that safe.
    private let lock = Lock()
    private var state: (checked: Bool, recorded: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>], diff: String?) =
        (false, [], [], nil)

    init() {}

    func finish(recorded: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>], diff: String?) {
        lock.withLock { state = (true, recorded, expected, diff) }
    }

    /// Whether the expectation was checked (by `flush()`/`run()`).
    public var isChecked: Bool { lock.withLock { state.checked } }
    /// `true` when checked and the timelines matched.
    public var passed: Bool { lock.withLock { state.checked && state.diff == nil } }
    /// What the observable emitted, with times (empty until checked).
    public var recorded: [Recorded<Event<Element>>] { lock.withLock { state.recorded } }
    /// The expected timeline (empty until checked).
    public var expected: [Recorded<Event<Element>>] { lock.withLock { state.expected } }
    /// The failure text (the aligned diff, or the diagram error); `nil` when
    /// it passed or is not checked yet.
    public var diff: String? { lock.withLock { state.diff } }
}

/// A subscription log waiting for its expected subscription diagrams.
public struct SubscriptionExpectation {
    let scheduler: TestScheduler
    let read: () -> [Subscription]

    /// Expects exactly these subscriptions (in any order), one diagram each:
    /// `toBe("^---!")`, `toBe("^--!", "--^--!")`. Checked at the next
    /// `flush()`/`run()`; a mismatch fails at this line.
    ///
    /// A diagram without `^` means subscribed at frame 0 (not "no
    /// subscription", as RxJS reads `"----"`); to expect no subscription at
    /// all, pass no diagram: `toBe()` or `toBe([])`.
    public func toBe(
        _ diagrams: String...,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        toBe(diagrams, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// ``toBe(_:fileID:filePath:line:column:)-(String...)`` with the diagrams in an array,
    /// as RxJS writes `toBe([sub1, sub2])`.
    public func toBe(
        _ diagrams: [String],
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        var expected: [Subscription] = []
        for diagram in diagrams {
            do {
                expected.append(try Marbles.parseSubscription(diagram, frame: scheduler.frame))
            } catch {
                TestFailureReporter.fail(error.description, at: site)
                return
            }
        }
        let read = self.read
        let frame = scheduler.frame
        scheduler.marbleExpectations.add(site: site) {
            let diff = Marbles.diff(expectedSubscriptions: expected, actualSubscriptions: read(), frame: frame)
            if !diff.isEqual {
                TestFailureReporter.fail(
                    TestFailure(
                        title: "subscription mismatch", message: "subscription expectation failed\n\(diff.description)",
                        site: site))
            }
        }
    }
}

/// Records what an expectation's source emits, with the virtual time. Unlike
/// ``TestableObserver`` it refers to its scheduler weakly: the scheduler
/// keeps its pending expectations, and they must not keep the scheduler
/// alive, or a scheduler dropped without a flush would never be released and
/// its unchecked expectations never reported (see `MarbleExpectationStore`).
final class MarbleRecorder<Element>: ObserverType, @unchecked Sendable {
    // `recorded` is guarded by `lock`; `scheduler` is set once, and weak
    // references are safe to load from any thread.
    private weak var scheduler: TestScheduler?
    private let lock = Lock()
    private var recorded: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Everything received so far, in order, with its time.
    var events: [Recorded<Event<Element>>] { lock.withLock { recorded } }

    func on(_ event: Event<Element>) {
        // Only a running scheduler delivers events, so it is there.
        guard let time = scheduler?.clock else { return }
        lock.withLock { recorded.append(Recorded(time: time, value: event)) }
    }
}

/// The marble expectations of one scheduler, checked at flush, and the hot
/// observables of the marble API waiting for the scheduler to start.
///
/// An expectation never checked is reported at its line as soon as it is
/// clear it never will be: when the XCTest test that made it ends (a
/// teardown block), when the `.checksResourceLeaks` trait's test ends
/// (`reportUnchecked(in:)`), or when the scheduler is released (this
/// store's `deinit`), whichever comes first. Swift Testing gives a library
/// no end-of-test hook otherwise, so there the release is the signal: it happens where
/// the last reference to the scheduler goes away, usually when the test
/// function returns, on the test's own task, so `Issue.record` reaches that
/// test. That is why nothing the store or the scheduler's queue keeps before
/// the first run refers to the scheduler strongly (`MarbleRecorder`, the
/// weak scheduler of the marble API's test observables). An observable under
/// test that holds the scheduler itself (a time operator given it) still
/// keeps it alive; for that case a store with expectations stated in a Swift
/// Testing test is listed (weakly) in `UncheckedAtExit`, which reports what
/// is still unchecked when the process exits and fails the process.
final class MarbleExpectationStore: @unchecked Sendable {
    // Every property is guarded by `lock`.
    private let lock = Lock()
    private var checks: [Check] = []
    private var cleanups: [() -> Void] = []
    private var setups: [() -> Void] = []
    private var teardownRegistered = false
    private var listedForExit = false

    /// One pending expectation: where it was stated, the Swift Testing test
    /// that stated it (if any), and the check itself.
    private struct Check {
        let site: CallSite
        let test: Test?
        let run: () -> Void
    }

    static let neverCheckedMessage =
        "marble expectation never checked: call `scheduler.flush()` (or use `scheduler.run { … }`)"

    func add(site: CallSite, check: @escaping () -> Void) {
        let test = Test.current
        let (register, listForExit) = lock.withLock { () -> (Bool, Bool) in
            checks.append(Check(site: site, test: test, run: check))
            defer {
                teardownRegistered = true
                if test != nil { listedForExit = true }
            }
            return (!teardownRegistered, test != nil && !listedForExit)
        }
        // Under Swift Testing, one still unchecked when the process exits
        // fails the process (a scheduler kept alive by its observable is
        // never released, see `UncheckedAtExit`).
        if listForExit { UncheckedAtExit.shared.register(self) }
        // Under XCTest, an expectation still unchecked when the test ends
        // fails at its line (Swift Testing has no end-of-test hook for a
        // library: there the release of the scheduler reports it, see deinit).
        if register {
            TestFailureReporter.atEndOfCurrentXCTest { [weak self] in self?.reportUnchecked() }
            // Under the `.checksResourceLeaks` trait, the end of the test
            // reports it too, even for a scheduler that is never released.
            if let scope = Resources.current { Self.scoped.add(self, in: scope) }
        }
    }

    /// The stores whose expectations were stated inside a `Resources.Scope`.
    private static let scoped = ScopedStores()

    /// Reports, at their lines, the expectations never checked of every
    /// scheduler whose expectations were stated while `scope` was current:
    /// the `.checksResourceLeaks` trait calls it when its test ends.
    static func reportUnchecked(in scope: Resources.Scope) {
        for store in scoped.take(scope) { store.reportUnchecked() }
    }

    func add(cleanup: @escaping () -> Void) { lock.withLock { cleanups.append(cleanup) } }

    deinit {
        // The scheduler is being released: what was not checked by now never
        // will be (an XCTest teardown block may already have taken it).
        reportUnchecked()
    }

    /// Keeps `setup` until the scheduler next starts running; `false` (and
    /// nothing kept) when it is running now, so the caller sets up at once.
    func deferUntilRun(scheduler: TestScheduler, _ setup: @escaping () -> Void) -> Bool {
        guard !scheduler.lock.withLock({ scheduler.state.isAdvancing }) else { return false }
        lock.withLock { setups.append(setup) }
        return true
    }

    /// Runs the deferred setups, in the order they were made.
    func runSetups() {
        let pending = lock.withLock {
            defer { setups = [] }
            return setups
        }
        for setup in pending { setup() }
    }

    /// Runs every pending check, then every cleanup; each runs once.
    func checkAll() {
        let (checks, cleanups) = takeAll()
        for check in checks { check.run() }
        for cleanup in cleanups { cleanup() }
    }

    /// Fails every expectation not checked yet, at its line, and lets go of
    /// what `expect` subscribed.
    func reportUnchecked() {
        let (checks, cleanups) = takeAll()
        for check in checks {
            TestFailureReporter.fail(
                TestFailure(title: "marble expectation never checked", message: Self.neverCheckedMessage, site: check.site))
        }
        for cleanup in cleanups { cleanup() }
    }

    /// The expectations not checked yet that a Swift Testing test stated, for
    /// the report at process exit.
    func uncheckedSwiftTestingExpectations() -> [(site: CallSite, test: Test?)] {
        lock.withLock { checks.filter { $0.test != nil }.map { ($0.site, $0.test) } }
    }

    private func takeAll() -> ([Check], [() -> Void]) {
        lock.withLock {
            defer {
                self.checks = []
                self.cleanups = []
            }
            return (self.checks, self.cleanups)
        }
    }
}

/// The marble expectation stores of each `Resources.Scope` (the leak trait's
/// scope of a test), both held weakly: neither a scheduler nor a scope is
/// kept alive by being listed here.
private final class ScopedStores: @unchecked Sendable {
    private struct Entry {
        weak var scope: Resources.Scope?
        weak var store: MarbleExpectationStore?
    }

    // `entries` is guarded by `lock`.
    private let lock = Lock()
    private var entries: [Entry] = []

    func add(_ store: MarbleExpectationStore, in scope: Resources.Scope) {
        lock.withLock {
            entries.removeAll { $0.scope == nil || $0.store == nil }
            entries.append(Entry(scope: scope, store: store))
        }
    }

    /// Removes the stores of `scope` (and entries whose scope or store is
    /// gone) and returns those still alive.
    func take(_ scope: Resources.Scope) -> [MarbleExpectationStore] {
        lock.withLock {
            var taken: [MarbleExpectationStore] = []
            entries.removeAll { entry in
                guard let entryScope = entry.scope, let store = entry.store else { return true }
                guard entryScope === scope else { return false }
                taken.append(store)
                return true
            }
            return taken
        }
    }
}

// @unchecked: `state` is guarded by `lock`. Sendable only when the elements
// are, since the recorded events are read on another thread.
extension MarbleResult: @unchecked Sendable where Element: Sendable {}
