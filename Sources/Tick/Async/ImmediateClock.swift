import Synchronization

/// A clock whose sleeps return at once: time jumps to the deadline instead of
/// passing.
///
/// For previews, demos and tests that do not care about time: code written
/// against `any Clock<Duration>` runs straight through its sleeps.
///
/// ```swift
/// let clock = ImmediateClock()
/// try await clock.sleep(for: .seconds(5))   // returns at once
/// // clock.now == SchedulerInstant(offset: .seconds(5))
/// ```
///
/// ## Rules
/// - ``now`` starts at the instant given to ``init(now:)`` and only moves
///   forward: a sleep sets it to the sleep's deadline, unless it is already
///   later (concurrent sleepers never move it back).
/// - A sleep never suspends. A task that is already cancelled gets
///   `CancellationError` and the clock does not move.
/// - Tolerance is ignored.
///
/// In production, give the same code `ContinuousClock()`; in tests that check
/// timing, a `TestScheduler`'s `virtualClock`.
public final class ImmediateClock: Clock, Sendable {
    /// Instants are exact durations since the clock's origin.
    public typealias Instant = SchedulerInstant

    private let current: Mutex<SchedulerInstant>

    /// A clock reading `now` (the origin by default).
    public init(now: SchedulerInstant = .origin) {
        current = Mutex(now)
    }

    /// The latest deadline slept until (or the initial instant).
    public var now: SchedulerInstant { current.withLock { $0 } }

    /// Zero: any instant can be slept until.
    public var minimumResolution: Duration { .zero }

    /// Moves ``now`` to `deadline` (if it is later) and returns without
    /// suspending; throws `CancellationError` if the task is cancelled.
    public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { now in
            if deadline > now { now = deadline }
        }
    }
}
