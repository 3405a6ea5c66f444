import Foundation
import Observation
import Tick

// How a value read from `@Observable` state is recorded on the virtual
// timeline (the API is in TestScheduler+Observation.swift).
//
// Observation tells an observer only that a change is *about* to happen:
// `withObservationTracking`'s `onChange` runs once, in the `willSet` of the
// first tracked property that changes, before the new value is stored. (Its
// `didSet` variants are SPI in Swift 6.3.) So the recording works one change
// behind:
//
// - In each `willSet` it notes the virtual time of the change, and at once
//   tracks the value again (`onChange` fires once per registration). That
//   read happens before the store, so it gives the value *before* this
//   change, which is the value the previous change produced: that previous
//   change, pending until now, is recorded with that value at its own time.
// - The newest change stays pending until the next `willSet` or until the
//   timeline is read (a marble check, `events`): no `willSet` happened since,
//   so the value read then is the one that change produced.
//
// Every change is therefore recorded at the virtual time it happened, with
// the value it stored, however many happen in one instant: a flicker
// (`false` → `true` → `false` within one action, or in two jobs at the same
// time) is two events at that time, a `(tf)` group in a diagram. Reads of the
// value happen only synchronously inside the model's own `willSet` (on the
// thread and isolation that is changing it) or when the test reads the
// timeline, and both are checked against the isolation the recording was
// made in (see `ReadIsolation`).

/// Where a recording may read the value: the isolation of the code that
/// made it.
enum ReadIsolation: Sendable {
    /// Made from nonisolated code: the value is read where the change
    /// happens (inside the model's `willSet`), or where the timeline is read.
    case nonisolated
    /// Made on the main actor: the value is read only where main-actor code
    /// runs: on the main dispatch queue (where Tick's main executor runs
    /// main-actor jobs; on Linux, once the main thread has handed the main
    /// queue over to `dispatch_main`, that is not the main thread) or on the
    /// main thread.
    case mainActor
    /// Made on another actor, which Tick cannot check without trapping: the
    /// recording reports that and records only the first value.
    case otherActor

    init(_ isolation: (any Actor)?) {
        guard let isolation else {
            self = .nonisolated
            return
        }
        self = isolation === MainActor.shared ? .mainActor : .otherActor
    }

    /// Whether the current thread may read the value.
    var allowsReadingHere: Bool {
        switch self {
        case .nonisolated: true
        case .mainActor: Thread.isMainThread || DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
        case .otherActor: false
        }
    }

    /// Set on the main queue only, so `getSpecific` says whether the current
    /// code runs on it (without trapping, unlike `dispatchPrecondition`).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// The recording of one value read from `@Observable` state: every change
/// with its virtual time (see the top of this file).
final class ObservationRecording<Value>: @unchecked Sendable {
    // @unchecked: the mutable state below is guarded by `lock`; `read` (not
    // Sendable: it reads the caller's model) is called only where
    // `isolation.allowsReadingHere` holds, that is in the isolation the
    // recording was made in, and never while `lock` is held.
    private let lock = Lock()
    private let read: () -> Value
    private let isolation: ReadIsolation
    /// Consecutive equal values are one event (for `Equatable` values); nil:
    /// every change is an event.
    private let isSame: ((Value, Value) -> Bool)?
    private let site: CallSite
    /// The scheduler, through its link (not `weak`: see `SchedulerLink`).
    private let link: SchedulerLink
    private var scheduler: TestScheduler? { link.scheduler }
    private var recorded: [Recorded<Event<Value>>] = []
    /// The time of the newest change, whose value is not recorded yet.
    private var pending: TestTime?
    private var stopped = false
    private var reportedMisuse = false
    /// A change happened where the value may not be read.
    private var changedOffIsolation = false

    /// Starts recording: reads the value now (the first event, at the
    /// scheduler's current time) and tracks it.
    init(
        scheduler: TestScheduler, isolation: (any Actor)?, isSame: ((Value, Value) -> Bool)?, site: CallSite,
        read: @escaping () -> Value
    ) {
        self.link = scheduler.handle
        self.read = read
        self.isolation = ReadIsolation(isolation)
        self.isSame = isSame
        self.site = site
        let start = scheduler.clock
        // The caller is in the isolation it passed (`isolated` parameter), so
        // this first read is where it belongs whatever the kind.
        let first: Value
        if self.isolation == .otherActor {
            first = read()
            stopped = true
            report(
                "recording an @Observable value from code isolated to an actor other than the main actor is not supported: Tick can only check main-actor isolation without trapping. Record from nonisolated or @MainActor code; only the first value was recorded."
            )
        } else {
            first = track()
        }
        recorded.append(Recorded(time: start, value: .next(first)))
    }

    /// Reads the value inside `withObservationTracking`, so the next change
    /// calls `willChange()`.
    private func track() -> Value {
        withObservationTracking(read, onChange: { [weak self] in self?.willChange() })
    }

    /// The model's `willSet` of a tracked property: records the previous
    /// change (the value read now is what it stored) and makes this one
    /// pending.
    private func willChange() {
        guard let scheduler, !lock.withLock({ stopped }) else { return }
        guard isolation.allowsReadingHere else {
            // Reported when the test reads the timeline or stops it: here, on
            // another thread, the test's failure reporting may not reach.
            lock.withLock {
                stopped = true
                changedOffIsolation = true
            }
            return
        }
        let time = scheduler.clock
        let before = track()
        lock.withLock {
            if let previous = pending { append(before, at: previous) }
            pending = time
        }
    }

    /// Records the value of the pending change, if there is one and this
    /// thread may read it (reported otherwise).
    private func settle() {
        if lock.withLock({ changedOffIsolation }) {
            report(
                "an @Observable value recorded on the main actor changed off the main actor; recording stopped at that change without reading the value (it is read only in the isolation it was recorded in), so the timeline ends before it."
            )
        }
        // Once stopped, the value may have changed unseen since `pending`.
        guard lock.withLock({ pending != nil && !stopped }) else { return }
        guard isolation.allowsReadingHere else {
            report(
                "the timeline of an @Observable value recorded on the main actor was read off the main actor; its newest change is left out. Check it from the main actor (a @MainActor test)."
            )
            return
        }
        let value = read()
        lock.withLock {
            if let time = pending {
                append(value, at: time)
                pending = nil
            }
        }
    }

    /// Appends one event (the caller holds `lock`).
    private func append(_ value: Value, at time: TestTime) {
        if let isSame, case .next(let last)? = recorded.last?.value, isSame(last, value) { return }
        recorded.append(Recorded(time: time, value: .next(value)))
    }

    /// Every change so far, the newest one included.
    var events: [Recorded<Event<Value>>] {
        settle()
        return lock.withLock { recorded }
    }

    /// Stops recording (after recording the newest change): later changes
    /// are not recorded, and the model's registrar keeps only a weak
    /// reference to this recording until its next change.
    func stop() {
        settle()
        lock.withLock { stopped = true }
    }

    /// Stops recording without reading the value (from a `deinit` or a
    /// cleanup, which may run anywhere): what was recorded stays, a change
    /// still pending is left out.
    func cancel() {
        if lock.withLock({ changedOffIsolation }) { settle() }
        lock.withLock { stopped = true }
    }

    private func report(_ message: String) {
        let first = lock.withLock {
            defer { reportedMisuse = true }
            return !reportedMisuse
        }
        if first { TestFailureReporter.fail(message, at: site) }
    }
}
