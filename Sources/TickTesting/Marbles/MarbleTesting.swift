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
    @inlinable
    public func cold<Element>(
        _ diagram: String, values: [Character: Element], error: any Error = TestError.boxedDefault,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdObservable<Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return createColdObservable(events(diagram, .cold, values: values, error: error, site: site))
    }

    /// A cold test observable of `String` markers: `cold("-a-b|")`.
    public func cold(
        _ diagram: String, error: any Error = TestError.boxedDefault,
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
    @inlinable
    public func hot<Element>(
        _ diagram: String, values: [Character: Element], error: any Error = TestError.boxedDefault,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotObservable<Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return HotObservable(deferredOn: self, events: events(diagram, .hot, values: values, error: error, site: site))
    }

    /// A hot test observable of `String` markers: `hot("-a-^-b|")`.
    public func hot(
        _ diagram: String, error: any Error = TestError.boxedDefault,
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
    @inlinable
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
        return MarbleExpectation(scheduler: self, recorder: recorder, plan: plan)
    }

    /// Subscribes to `source` as `plan` says, recording what it emits.
    /// Inlinable, so each event is recorded by code specialized for the
    /// element type.
    @inlinable
    func record<Source: ObservableType>(_ source: Source, plan: Subscription) -> MarbleRecorder<Source.Element> {
        // One object records, subscribes, unsubscribes and cleans up: each
        // scheduled action captures only it (no closure context), and the
        // store keeps it as its cleanup.
        let recorder = MarbleSubscriber(scheduler: self, source: source)
        let subscribe = marbleAction(at: plan.subscribe) { recorder.subscribe() }
        let unsubscribe = plan.unsubscribe.map { end in marbleAction(at: end) { recorder.end() } }
        recorder.lock.withLock { recorder.actions = (subscribe, unsubscribe) }
        marbleExpectations.add(cleanup: recorder)
        return recorder
    }

    /// Schedules `action` at `time` as ``scheduleAt(_:action:)`` does, and
    /// returns its sequence number for `cancel(_:)`: a number rather than an
    /// existential disposable, which the cleanup copied and disposed at a
    /// cost of about 600 instructions an expectation.
    @usableFromInline
    func marbleAction(at time: TestTime, _ action: @escaping () -> Void) -> UInt64 {
        enqueue(due: instant(for: time), processingDelay: false, action).sequence
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

    @inlinable
    func events<Element>(
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
