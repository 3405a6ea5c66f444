import Testing
import Tick

// The expectations of marble tests: what `expect(…)` recorded, checked
// against a diagram by `toBe`/`toEqual`, and the result of the check (see
// MarbleTesting.swift for the API and its rules).

/// What `expect(observable)` recorded, waiting for its expected diagram.
public struct MarbleExpectation<Element> {
    @usableFromInline let scheduler: TestScheduler
    /// What the source emitted so far (read when the expectation is checked).
    @usableFromInline let recorded: () -> [Recorded<Event<Element>>]
    /// When the expectation's source was subscribed to and unsubscribed
    /// from: ``toEqual(_:fileID:filePath:line:column:)`` subscribes the other
    /// observable the same way.
    @usableFromInline let plan: Subscription

    @inlinable
    init(scheduler: TestScheduler, recorder: MarbleRecorder<Element>, plan: Subscription) {
        self.scheduler = scheduler
        self.recorded = { recorder.events }
        self.plan = plan
    }

    init(scheduler: TestScheduler, recorder: TestableObserver<Element>, plan: Subscription) {
        self.scheduler = scheduler
        self.recorded = { recorder.events }
        self.plan = plan
    }

    /// Expects the recorded events to be `diagram` (absolute times; an
    /// optional `^` marks frame 0). Checked at the next `flush()`/`run()`; a
    /// mismatch fails at this line with the aligned diff.
    ///
    /// - Returns: the outcome, filled in when the expectation is checked.
    @inlinable @discardableResult
    public func toBe(
        _ diagram: String, values: [Character: Element] = [:], error: any Error = TestError.boxedDefault,
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
    @inlinable @discardableResult
    public func toBe(
        _ diagram: String, values: [Character: Element] = [:], error: any Error = TestError.boxedDefault,
        by areEqual: @escaping (Element, Element) -> Bool,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleResult<Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let expected: [Recorded<Event<Element>>]
        do {
            expected = try Marbles.parse(diagram, .hot, values: values, error: error, frame: scheduler.frame)
        } catch {
            TestFailureReporter.fail(error.description, at: site)
            let result = MarbleResult<Element>(lock: scheduler.marbleExpectations.lock)
            result.finish(recorded: [], expected: [], diff: error.description)
            return result
        }
        return check(site: site, values: values, areEqual: areEqual, expected: .events(expected))
    }

    /// Expects the recorded events to be `diagram`, for observables of errors
    /// (an error tracker's output, say): elements compare by
    /// ``errorsAreEqual(_:_:)``, Tick's rule for errors.
    @discardableResult
    public func toBe(
        _ diagram: String, values: [Character: any Error], error: any Error = TestError.boxedDefault,
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
        let otherRecorder = scheduler.record(other.asObservable(), plan: plan)
        return check(site: site, values: [:], areEqual: areEqual, expected: .recorder(otherRecorder))
    }

    /// The expected timeline of a check: a parsed diagram, or what another
    /// observable emitted (``toEqual(_:fileID:filePath:line:column:)``).
    @usableFromInline
    enum ExpectedTimeline {
        case events([Recorded<Event<Element>>])
        case recorder(MarbleRecorder<Element>)

        @inlinable
        var events: [Recorded<Event<Element>>] {
            switch self {
            case .events(let events): events
            case .recorder(let recorder): recorder.events
            }
        }
    }

    /// The result of a check handed to the scheduler's store, to run at the
    /// next flush.
    @inlinable
    func check(
        site: CallSite, values: [Character: Element], areEqual: @escaping (Element, Element) -> Bool,
        expected: ExpectedTimeline
    ) -> MarbleResult<Element> {
        // What the check needs is kept in its result until it runs, so the
        // closure the store keeps captures only the result (a closure
        // capturing one object needs no context of its own: one allocation
        // less per expectation). It is given to the result's initializer
        // (assigning it afterwards destroyed the `nil` it replaced, through
        // the runtime's value witnesses: about 60 instructions).
        let result = MarbleResult<Element>(
            lock: scheduler.marbleExpectations.lock,
            pendingCheck: PendingCheck(
                site: site, values: values, areEqual: areEqual, expected: expected, recorded: recorded,
                frame: scheduler.frame))
        scheduler.marbleExpectations.add(
            site: site, check: { result.runPendingCheck() }, discard: { result.discardPendingCheck() })
        return result
    }

    /// What a check compares and how it reports a mismatch, kept in its
    /// ``MarbleResult`` from `toBe`/`toEqual` until the check runs.
    @usableFromInline
    struct PendingCheck {
        @usableFromInline let site: CallSite
        @usableFromInline let values: [Character: Element]
        @usableFromInline let areEqual: (Element, Element) -> Bool
        @usableFromInline let expected: ExpectedTimeline
        @usableFromInline let recorded: () -> [Recorded<Event<Element>>]
        @usableFromInline let frame: Duration

        @inlinable
        init(
            site: CallSite, values: [Character: Element], areEqual: @escaping (Element, Element) -> Bool,
            expected: ExpectedTimeline, recorded: @escaping () -> [Recorded<Event<Element>>], frame: Duration
        ) {
            self.site = site
            self.values = values
            self.areEqual = areEqual
            self.expected = expected
            self.recorded = recorded
            self.frame = frame
        }

        /// Compares the timelines and fills in `result` (a mismatch also
        /// fails at `site`).
        @inlinable
        func run(into result: MarbleResult<Element>) {
            let (expected, actual) = (expected.events, recorded())
            // The common case, a match, needs no diagrams: only a mismatch
            // pays for wrapping the elements and laying out the diff.
            if MarbleExpectation.sameTimeline(expected, actual, by: areEqual) {
                result.finish(recorded: actual, expected: expected, diff: nil)
                return
            }
            MarbleExpectation.reportMismatch(
                result, expected: expected, actual: actual, site: site, values: values, areEqual: areEqual, frame: frame)
        }
    }

    /// The slow path of a check, when `sameTimeline` says the timelines
    /// differ: lays out the diff and fails at `site`. Not inlinable: only a
    /// failing expectation gets here.
    @usableFromInline
    static func reportMismatch(
        _ result: MarbleResult<Element>, expected: [Recorded<Event<Element>>], actual: [Recorded<Event<Element>>],
        site: CallSite, values: [Character: Element], areEqual: @escaping (Element, Element) -> Bool, frame: Duration
    ) {
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
        var message = "marble expectation failed\n\(diff.description)"
        // The same two timelines as a picture, attached to the failing test.
        if let picture = MarbleFailurePictures.attach(diff, site: site) { message += "\n" + picture }
        TestFailureReporter.fail(TestFailure(title: diff.title, message: message, site: site))
    }
}

extension MarbleExpectation {
    /// Whether two timelines are equal, elements compared by `areEqual` and
    /// errors by ``errorsAreEqual(_:_:)``: what `==` on the timelines of
    /// `Compared` elements says, without building them.
    @inlinable
    static func sameTimeline(
        _ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>], by areEqual: (Element, Element) -> Bool
    ) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Indices rather than `zip`: this code is not specialized for the
        // element type, and a generic `zip` iterator costs far more per step.
        // Each event matched where it is stored, one side at a time: a
        // tuple of the two events copied both (outlined copies, each with
        // its retains and releases).
        for index in lhs.indices {
            guard lhs[index].time == rhs[index].time else { return false }
            switch lhs[index].value {
            case .next(let l):
                guard case .next(let r) = rhs[index].value, areEqual(l, r) else { return false }
            case .error(let l):
                guard case .error(let r) = rhs[index].value, errorsAreEqual(l, r) else { return false }
            case .completed:
                guard case .completed = rhs[index].value else { return false }
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
    // Written once by the check, read by the test; `lock` (the scheduler's
    // marble lock) makes that safe.
    @usableFromInline let lock: Lock
    @usableFromInline @exclusivity(unchecked) var state: (checked: Bool, recorded: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>], diff: String?) =
        (false, [], [], nil)

    /// The check waiting to run (see ``MarbleExpectation/check(_:site:values:areEqual:expected:)``):
    /// set once before the check is handed to the store (whose lock makes it
    /// visible to the thread that runs the check), taken once by that check.
    @usableFromInline @exclusivity(unchecked) var pendingCheck: MarbleExpectation<Element>.PendingCheck?

    @inlinable
    init(lock: Lock, pendingCheck: MarbleExpectation<Element>.PendingCheck? = nil) {
        self.lock = lock
        self.pendingCheck = pendingCheck
    }

    /// Runs the pending check, once; what it held is released right after
    /// it ran, as when it was captured by the store's closure.
    @inlinable
    func runPendingCheck() {
        guard let check = pendingCheck.take() else { return }
        check.run(into: self)
    }

    /// Lets go of the pending check without running it (it was reported
    /// never checked).
    @inlinable
    func discardPendingCheck() {
        pendingCheck = nil
    }

    @inlinable
    func finish(
        recorded: __owned [Recorded<Event<Element>>], expected: __owned [Recorded<Event<Element>>], diff: __owned String?
    ) {
        // Taken and moved in, not copied (a closure given to `withLock`
        // would copy them: a retain and a release of each).
        lock.lock()
        state = (true, recorded, expected, diff)
        lock.unlock()
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

// @unchecked: `state` is guarded by `lock`, and `pendingCheck` is set before
// the check is handed to the store and taken once by it (the store's lock
// orders the two). Sendable only when the elements
// are, since the recorded events are read on another thread.
extension MarbleResult: @unchecked Sendable where Element: Sendable {}
