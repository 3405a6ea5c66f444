import Observation
import Tick

/// The timelines of `@Observable` state: a property (or any value computed
/// from observable properties) recorded at the virtual time of each change,
/// and marble assertions on it.
///
/// ```swift
/// scheduler.expect(model, \.isSpinnerVisible)
///     .toBe("f--t--f", values: ["f": false, "t": true])
/// await scheduler.run()
/// ```
///
/// ## What is recorded
/// - The value when recording starts, at the scheduler's current time, then
///   one `next` event per change, at the virtual time of the change, with
///   the value the change stored. The timeline never completes.
/// - Every change counts, however many happen in one instant: a value that
///   goes `false` → `true` → `false` within one action (or in two jobs at the
///   same time) is two events in one frame, `(tf)` in a diagram. Reading the
///   value after each `advance` would see `false` twice and miss it.
/// - For `Equatable` values, a change that leaves the value equal to the
///   previous event is not an event (the `@Observable` macro already skips
///   a write of an equal value to an `Equatable` property; this also covers a
///   computed value whose inputs changed and whose result did not). For other
///   values, every change of a tracked property is an event.
/// - A change is known when it is *about* to happen (Observation's
///   `willSet`); the value it stored is read at the next change or when the
///   timeline is read (a marble check at `flush()`/`run()`, or
///   ``ObservationRecorder/events``). See ObservationRecording.swift.
/// - **What is tracked.** The properties watched for the next change are
///   those the value read *before* the current one (the read in `willSet`):
///   a stored property, or a key path through properties of one object, is
///   exact. A closure that reads some properties only in some states (`a
///   || b` short-circuits, an `if`, a key path through an object that is
///   replaced) misses a change of a property it did not read in the state
///   before the previous change. Read every input each time
///   (`let (a, b) = (model.a, model.b)`).
///
/// ## Isolation
/// The value is read only in the isolation the recording was made in: a
/// recording made on the main actor reads a main-actor model only where
/// main-actor code runs, the main queue or the main thread (inside the
/// model's own `willSet` when main-actor code changes it, or where a
/// `@MainActor` test reads the timeline). A change made off
/// the main actor, or a timeline read off it, is reported at the recording's
/// line instead of read. Recordings made from nonisolated code read where the
/// change happens. Recording from another actor's isolation is reported as
/// unsupported.
///
/// ## Lifetime
/// An expectation's recording stops when it is checked (`flush()`/`run()`);
/// a ``ObservationRecorder`` stops when it is released or told to
/// ``ObservationRecorder/stop()``. The model keeps only a weak reference to a
/// recording (in its registrar, until its next change), so neither the
/// scheduler nor the recording outlives the test.
extension TestScheduler {
    /// Records `keyPath` of `model` at each change, for a later
    /// ``MarbleExpectation/toBe(_:values:error:fileID:filePath:line:column:)``.
    ///
    /// Checked at the next `flush()`/`run()`, which also stops the recording.
    /// Consecutive equal values are one event.
    public func expect<Model: Observation.Observable, Value: Equatable>(
        _ model: Model, _ keyPath: KeyPath<Model, Value>,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> MarbleExpectation<Value> {
        expectObserving(
            read: { model[keyPath: keyPath] }, isSame: (==), isolation: isolation,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Records `keyPath` of `model` at each change (every change an event:
    /// the values are not `Equatable`), for a later `toBe(_:values:by:)`.
    public func expect<Model: Observation.Observable, Value>(
        _ model: Model, _ keyPath: KeyPath<Model, Value>,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> MarbleExpectation<Value> {
        expectObserving(
            read: { model[keyPath: keyPath] }, isSame: nil, isolation: isolation,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Records the value `read` computes from observable state at each change
    /// of a property it reads (`expect(observing: { model.isLoading && !model.hasResults })`),
    /// for a later ``MarbleExpectation/toBe(_:values:error:fileID:filePath:line:column:)``.
    /// Consecutive equal values are one event.
    public func expect<Value: Equatable>(
        observing read: @escaping () -> Value,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> MarbleExpectation<Value> {
        expectObserving(
            read: read, isSame: (==), isolation: isolation,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// ``expect(observing:fileID:filePath:line:column:isolation:)`` for values
    /// that are not `Equatable`: every change is an event.
    public func expect<Value>(
        observing read: @escaping () -> Value,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> MarbleExpectation<Value> {
        expectObserving(
            read: read, isSame: nil, isolation: isolation,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Records `keyPath` of `model` at each change until the returned
    /// recorder is released or stopped. Consecutive equal values are one
    /// event.
    public func record<Model: Observation.Observable, Value: Equatable>(
        _ model: Model, _ keyPath: KeyPath<Model, Value>,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> ObservationRecorder<Value> {
        ObservationRecorder(
            ObservationRecording(
                scheduler: self, isolation: isolation, isSame: (==),
                site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
                read: { model[keyPath: keyPath] }))
    }

    /// Records `keyPath` of `model` (values that are not `Equatable`: every
    /// change is an event) until the returned recorder is released or stopped.
    public func record<Model: Observation.Observable, Value>(
        _ model: Model, _ keyPath: KeyPath<Model, Value>,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> ObservationRecorder<Value> {
        ObservationRecorder(
            ObservationRecording(
                scheduler: self, isolation: isolation, isSame: nil,
                site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
                read: { model[keyPath: keyPath] }))
    }

    /// Records the value `read` computes from observable state at each change
    /// of a property it reads, until the returned recorder is released or
    /// stopped. Consecutive equal values are one event.
    public func record<Value: Equatable>(
        observing read: @escaping () -> Value,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> ObservationRecorder<Value> {
        ObservationRecorder(
            ObservationRecording(
                scheduler: self, isolation: isolation, isSame: (==),
                site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), read: read))
    }

    /// ``record(observing:fileID:filePath:line:column:isolation:)`` for values
    /// that are not `Equatable`: every change is an event.
    public func record<Value>(
        observing read: @escaping () -> Value,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) -> ObservationRecorder<Value> {
        ObservationRecorder(
            ObservationRecording(
                scheduler: self, isolation: isolation, isSame: nil,
                site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), read: read))
    }

    private func expectObserving<Value>(
        read: @escaping () -> Value, isSame: ((Value, Value) -> Bool)?, isolation: (any Actor)?, site: CallSite
    ) -> MarbleExpectation<Value> {
        let start = clock
        let recording = ObservationRecording(
            scheduler: self, isolation: isolation, isSame: isSame, site: site, read: read)
        marbleExpectations.add(cleanup: { recording.cancel() })
        return MarbleExpectation(scheduler: self, recorded: { recording.events }, plan: Subscription(start))
    }
}

extension MarbleExpectation {
    /// An expectation on a timeline recorded some other way (an observable
    /// value); `plan` is when it started, for `toEqual`.
    init(scheduler: TestScheduler, recorded: @escaping () -> [Recorded<Event<Element>>], plan: Subscription) {
        self.scheduler = scheduler
        self.recorded = recorded
        self.plan = plan
    }
}

/// The recorded timeline of a value read from `@Observable` state (made by
/// `scheduler.record(model, \.property)` or `scheduler.record(observing:)`):
/// every change as a `next` event at its virtual time, like a
/// ``TestableObserver``'s events. Recording stops when this recorder is
/// released or ``stop()`` is called.
public final class ObservationRecorder<Value> {
    let recording: ObservationRecording<Value>

    init(_ recording: ObservationRecording<Value>) { self.recording = recording }

    deinit { recording.cancel() }

    /// Every change so far with its time, the first event being the value
    /// when recording started. Read it in the isolation the recording was
    /// made in (a main-actor recording on the main actor).
    public var events: [Recorded<Event<Value>>] { recording.events }

    /// The recorded values, in order, without their times.
    public var values: [Value] { recording.events.compactMap(\.value.element) }

    /// Stops recording: later changes are not recorded. ``events`` keeps what
    /// was recorded.
    public func stop() { recording.stop() }
}
