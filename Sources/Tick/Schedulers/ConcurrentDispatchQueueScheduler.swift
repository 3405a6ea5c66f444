import Dispatch

/// A scheduler that runs work on a `DispatchQueue` that may run several
/// actions at once: a concurrent queue of its own, a global queue, or any
/// queue you pass (the role of RxSwift's `ConcurrentDispatchQueueScheduler`).
///
/// Use it to move work off the calling thread without queueing it behind
/// other work: `subscribe(on:)` for a blocking source, `observe(on:)` for heavy
/// processing. Safe to use from any thread.
///
/// Unlike ``DispatchQueueScheduler`` it does **not** run one action at a time:
/// actions scheduled separately may run at the same time, on different
/// threads. What still holds:
/// - immediate work *starts* in the order it was scheduled (Dispatch dequeues
///   in FIFO order), but may finish in any order;
/// - work never runs early: a delay is rounded *up* to the next nanosecond; a
///   delay longer than `Int.max` nanoseconds (292 years) is "never";
/// - one periodic schedule never overlaps itself: its runs go through a
///   serial queue of its own that runs on this queue (a run that takes longer
///   than the period makes later ticks coalesce);
/// - the events of one subscription still arrive one at a time: every Tick
///   operator that schedules work (`observe(on:)`, `delay`, `debounce`, `timer`,
///   …) serializes its own deliveries, so observers need no locks.
///
/// Code of your own that you schedule on it directly must be safe to run
/// concurrently with the other actions you schedule.
public final class ConcurrentDispatchQueueScheduler: Scheduler, @unchecked Sendable {
    // Sendable: the only stored property is an immutable `DispatchQueue`.

    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`. A serial queue works too (it then behaves like
    /// ``DispatchQueueScheduler``).
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on a new concurrent queue at `qos`.
    public convenience init(label: String = "Tick.ConcurrentDispatchQueueScheduler", qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos, attributes: .concurrent))
    }

    public var now: SchedulerInstant { .monotonicNow }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        queue.scheduleAction(action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        queue.scheduleAction(after: checkedDelay(delay, "ConcurrentDispatchQueueScheduler.schedule(after:)"), action)
    }

    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        guard checkedPeriod(period, "ConcurrentDispatchQueueScheduler.schedulePeriodic") else {
            return Disposables.create()
        }
        let delay = checkedDelay(delay, "ConcurrentDispatchQueueScheduler.schedulePeriodic")
        // A serial queue of its own, running on `queue`: the runs of one
        // periodic schedule are ordered one after the other explicitly (and
        // visibly to the thread sanitizer), not only by the timer source.
        let serial = DispatchQueue(label: "Tick.ConcurrentDispatchQueueScheduler.periodic", target: queue)
        return PeriodicDispatchTimer(
            queue: serial, start: .now() + delay.dispatchInterval, period: period.dispatchInterval, action: action)
    }
}
