/// Runs work now, later, or periodically, on some notion of time.
///
/// `Scheduler` is one non-generic protocol, so `any Scheduler` can be stored in
/// a view model and passed around without type erasers: production code takes
/// a `MainScheduler.instance` or a ``DispatchQueueScheduler``, tests pass a
/// `TestScheduler` (from `TickTesting`) and control time exactly.
///
/// ## Rules every scheduler follows
/// - Time is exact: ``now`` is a ``SchedulerInstant`` and delays are `Duration`s.
/// - Work due at the same instant runs in the order it was scheduled.
/// - A zero delay means "as soon as possible"; work is never run early.
/// - A negative delay is misuse: it is reported through ``Misuse`` and treated
///   as zero.
/// - Periodic work runs at `start + delay + k × period` for k = 0, 1, 2, … (no
///   drift from accumulated lateness). A negative period is misuse: it is
///   reported and nothing is scheduled. A zero period is accepted by
///   TickTesting's `TestScheduler` (as by RxTest's: each repetition comes at
///   the next turn) and reported as misuse by the real schedulers, where it
///   would be a busy loop.
/// - Disposing the returned disposable cancels work that has not started, and
///   stops periodic work after the current run.
///
/// Actions are not required to be `@Sendable`: a scheduler runs each action on
/// its own context (a serial queue, the current thread, virtual time), one at a
/// time, which is the Rx contract.
public protocol Scheduler: AnyObject, Sendable {
    /// The scheduler's current time.
    var now: SchedulerInstant { get }

    /// Schedules `action` to run as soon as possible.
    @discardableResult
    func schedule(_ action: @escaping () -> Void) -> any Disposable

    /// Schedules `action` to run after `delay`.
    ///
    /// (`action` is `__owned`: the caller's reference moves to the scheduler,
    /// which keeps it, instead of being borrowed and copied. An
    /// implementation may declare the parameter either way.)
    @discardableResult
    func schedule(after delay: Duration, _ action: __owned @escaping () -> Void) -> any Disposable

    /// Schedules `action` to run after `delay` and then every `period`.
    @discardableResult
    func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable

    /// Schedules `action` at the instant `time` (as soon as possible if
    /// `time` is not in the future): what `schedule(after: time - now)`
    /// does. The default implementation is exactly that; a scheduler that
    /// keeps its work by due instant (TickTesting's `TestScheduler`) takes
    /// the instant as it is, without reading its clock a second time.
    @discardableResult
    func schedule(at time: SchedulerInstant, _ action: @escaping () -> Void) -> any Disposable

    /// What a timer observable keeps of this scheduler. An implementation
    /// detail of Tick's timers and TickTesting: a scheduler you write keeps
    /// the default, the scheduler itself.
    ///
    /// Held strongly, as in RxSwift: a real scheduler runs its work by
    /// itself, so an observable made with one keeps it alive. A TickTesting
    /// `TestScheduler` returns a stand-in that reaches it without keeping it
    /// alive: only the test, which holds it, can move its clock, and a
    /// pending one-shot timer is the very object the scheduler's queue holds
    /// (`OneShotTimerSource`), so holding the scheduler would make a
    /// reference cycle for as long as the timer is pending
    /// (Docs/Performance.md, "Timers: one object a timer").
    ///
    /// (Public, with a default, so that a scheduler defined in any module
    /// conforms without naming it: Docs/Schedulers.md, "Writing a
    /// scheduler".)
    var _referenceForTimers: any Scheduler { get }

    /// Whether scheduling on this scheduler only queues the work for later.
    /// An implementation detail of Tick's timers and TickTesting: a scheduler
    /// you write keeps the default, `false`.
    ///
    /// `true` promises that `schedule(after:_:)` never runs the action, nor
    /// any other code of its caller's, before it returns, and never uses the
    /// current thread's trampoline (``CurrentThreadScheduler``). A one-shot
    /// timer subscribed directly on such a scheduler is then subscribed
    /// without going through the trampoline, which could not change anything
    /// (`OneShotTimerSource.start(_:)`, `CurrentThreadScheduler.subscribe(direct:_:)`). A TickTesting
    /// `TestScheduler`'s link (what its timers hold, ``_referenceForTimers``)
    /// says `true`.
    var _schedulesOnlyForLater: Bool { get }
}

extension Scheduler {
    /// The scheduler itself: a timer observable keeps a real scheduler alive.
    public var _referenceForTimers: any Scheduler { self }

    /// `false`: a scheduler may run work, or use the trampoline, while it
    /// schedules (``ImmediateScheduler``, ``CurrentThreadScheduler``).
    public var _schedulesOnlyForLater: Bool { false }

    /// Schedules `action` at the instant `time` (at once if `time` is not in
    /// the future), as `schedule(after: (time - now).clampedToZero)`.
    @discardableResult
    public func schedule(at time: SchedulerInstant, _ action: @escaping () -> Void) -> any Disposable {
        schedule(after: (time - now).clampedToZero, action)
    }
}

/// Validates a delay for a scheduler: negative delays are reported and become zero.
// `what` is a plain string, and the report is a function of its own: with an
// autoclosure and the message inline, the optimizer made a copy of both for
// each of the 19 callers (Docs/Performance.md, "Build time").
@usableFromInline
func checkedDelay(_ delay: Duration, _ what: String) -> Duration {
    if delay < .zero {
        reportNegativeDelay(delay, what)
        return .zero
    }
    return delay
}

@usableFromInline @inline(never)
func reportNegativeDelay(_ delay: Duration, _ what: String) {
    Misuse.report("\(what) was given a negative delay (\(delay)); it runs as if the delay were zero.")
}

/// Validates a period: a period that is not positive is reported.
@usableFromInline
func checkedPeriod(_ period: Duration, _ what: String) -> Bool {
    if period <= .zero {
        reportNonPositivePeriod(period, what)
        return false
    }
    return true
}

@usableFromInline @inline(never)
func reportNonPositivePeriod(_ period: Duration, _ what: String) {
    Misuse.report("\(what) was given a period of \(period); a period must be positive. Nothing was scheduled.")
}
