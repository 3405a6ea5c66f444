/// A `Clock` that tells the time of a ``Scheduler``: ``Clock/asScheduler``
/// gives that scheduler itself, so code handed such a clock schedules its Rx
/// work on exactly the timeline its sleeps are on.
///
/// `TestScheduler.VirtualClock` (TickTesting) is one: its scheduler is the
/// `TestScheduler`, so a view model given only `scheduler.virtualClock` runs
/// its sleeps, its Rx timers and its indicators on one virtual timeline.
public protocol SchedulerClock: Clock where Duration == Swift.Duration {
    /// The scheduler whose time this clock tells.
    var tickScheduler: any Scheduler { get }
}

extension Clock where Duration == Swift.Duration {
    /// A ``Scheduler`` on this clock's time, so one clock can be the only
    /// time source a type takes: pass `clock.asScheduler` to every
    /// time-based operator (`debounce`, `delay`, `timeout`, …) and to the
    /// indicators, and `clock` itself to `sleep`.
    ///
    /// - A ``SchedulerClock`` (a `TestScheduler`'s `virtualClock`) gives its
    ///   own scheduler: exact virtual time, driven by the test's `advance`.
    /// - Any other clock (`ContinuousClock`, `SuspendingClock`, your own)
    ///   gives a ``ClockScheduler`` on it: its actions run on the main actor,
    ///   each after a sleep on the clock (see its rules).
    public var asScheduler: any Scheduler {
        if let clock = self as? any SchedulerClock { return clock.tickScheduler }
        return ClockScheduler(clock: self)
    }
}

/// A ``Scheduler`` whose time is a `Clock`'s: each action runs after a sleep
/// on the clock, on the main actor.
///
/// Made by ``Clock/asScheduler`` for clocks that are not a
/// ``SchedulerClock``: with `ContinuousClock()` in production, a type that
/// takes one clock gets a scheduler on the same time.
///
/// ## Rules
/// - ``now`` is the time elapsed on the clock since the scheduler was made
///   (as an offset from `SchedulerInstant.origin`).
/// - `schedule(after: d)` runs the action on the main actor once a sleep
///   until `now + d` on the clock returns (so never before that deadline on
///   the clock). Actions run one at a time (the main actor), in the order
///   their sleeps end; two due at the same instant run in the order the
///   clock resumes them.
/// - A periodic action's deadlines are computed from its start (start,
///   start + period, …): a late run does not delay the next ones.
/// - Disposing cancels the sleep; the action then never runs. A pending
///   action counts as a live resource (`Resources`).
/// - A negative delay is misuse: reported and treated as zero. A period
///   that is not positive is reported and nothing is scheduled.
public final class ClockScheduler<C: Clock>: Scheduler where C.Duration == Duration {
    /// The clock whose time this scheduler tells.
    public let clock: C
    private let origin: C.Instant

    /// A scheduler on `clock`'s time, from now.
    public init(clock: C) {
        self.clock = clock
        self.origin = clock.now
    }

    /// The time elapsed on the clock since this scheduler was made.
    public var now: SchedulerInstant { SchedulerInstant(offset: origin.duration(to: clock.now)) }

    /// Runs `action` on the main actor as soon as possible (a sleep of zero on the clock).
    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        schedule(after: .zero, action)
    }

    /// Runs `action` on the main actor once a sleep on the clock until
    /// `now + delay` returns, unless the returned disposable is disposed first.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let delay = checkedDelay(delay, "ClockScheduler.schedule(after:)")
        let item = ScheduledAction(action)
        let deadline = clock.now.advanced(by: delay)
        let clock = self.clock
        let task = Task { @MainActor in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                // Cancelled: the action was disposed.
                return
            }
            item.run()
        }
        return ClockSchedulerTask(item: item, task: task)
    }

    /// Runs `action` on the main actor at `now + delay`, then every
    /// `period`, deadlines counted from the start, until disposed.
    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        let delay = checkedDelay(delay, "ClockScheduler.schedulePeriodic(after:period:)")
        guard checkedPeriod(period, "ClockScheduler.schedulePeriodic(after:period:)") else {
            return Disposables.create()
        }
        // The action is only ever called on the main actor, one run at a time.
        let action = UncheckedSendable(action)
        let item = ScheduledAction({})
        let start = clock.now.advanced(by: delay)
        let clock = self.clock
        let task = Task { @MainActor in
            var deadline = start
            while !item.isDisposed {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    return
                }
                guard !item.isDisposed else { return }
                action.value()
                deadline = deadline.advanced(by: period)
            }
        }
        return ClockSchedulerTask(item: item, task: task)
    }
}

/// The disposable of a ``ClockScheduler``'s action: disposing it marks the
/// action disposed (it never runs after) and cancels the task's sleep.
private final class ClockSchedulerTask: Cancelable, @unchecked Sendable {
    // Both set once at creation; `ScheduledAction` and `Task` are thread-safe.
    private let item: ScheduledAction
    private let task: Task<Void, Never>

    init(item: ScheduledAction, task: Task<Void, Never>) {
        self.item = item
        self.task = task
    }

    var isDisposed: Bool { item.isDisposed }

    func dispose() {
        item.dispose()
        task.cancel()
    }
}
