import Dispatch
import Synchronization

/// A scheduler that runs work on a serial `DispatchQueue`.
///
/// Safe to use from any thread. Work runs one action at a time on the queue, in
/// the order it was scheduled when due at the same time. The queue must be
/// serial (a concurrent queue would break the one-at-a-time rule).
///
/// Real time is only as exact as the system's timers: Dispatch works in whole
/// nanoseconds, so a delay is rounded *up* to the next nanosecond (work never
/// runs early). A delay longer than `Int.max` nanoseconds (292 years) is
/// "never": Dispatch is given a deadline of forever and never runs the work.
public final class DispatchQueueScheduler: Scheduler, @unchecked Sendable {
    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// A scheduler on `queue`, which must be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// A scheduler on a new serial queue.
    public convenience init(label: String, qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    public var now: SchedulerInstant { .monotonicNow }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        queue.scheduleAction(action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        queue.scheduleAction(after: checkedDelay(delay, "DispatchQueueScheduler.schedule(after:)"), action)
    }

    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        guard checkedPeriod(period, "DispatchQueueScheduler.schedulePeriodic") else { return Disposables.create() }
        let delay = checkedDelay(delay, "DispatchQueueScheduler.schedulePeriodic")
        return PeriodicDispatchTimer(
            queue: queue, start: .now() + delay.dispatchInterval, period: period.dispatchInterval, action: action)
    }
}

extension DispatchQueue {
    /// Runs `action` on this queue, unless the returned disposable is
    /// disposed first (the dispatch schedulers' one-shot work).
    func scheduleAction(_ action: @escaping () -> Void) -> any Disposable {
        let item = ScheduledAction(action)
        async { item.run() }
        return item
    }

    /// Runs `action` on this queue after `delay` (already checked), unless
    /// the returned disposable is disposed first.
    func scheduleAction(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let item = ScheduledAction(action)
        asyncAfter(deadline: .now() + delay.dispatchInterval) { item.run() }
        return item
    }
}

/// Periodic work on a `DispatchSourceTimer`, whose deadlines are computed from
/// the start (no drift).
final class PeriodicDispatchTimer: Cancelable, @unchecked Sendable {
    private let timer: any DispatchSourceTimer
    private let disposed = Atomic<Bool>(false)
    private let counter = ResourceCounter()

    init(queue: DispatchQueue, start: DispatchTime, period: DispatchTimeInterval, action: @escaping () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        counter.increment()
        let action = UncheckedSendable(action)
        // The handler holds this object until `dispose` clears the handler.
        timer.setEventHandler { [self] in
            guard !isDisposed else { return }
            action.value()
        }
        timer.schedule(deadline: start, repeating: period, leeway: .nanoseconds(0))
        timer.resume()
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        timer.setEventHandler(handler: nil)
        timer.cancel()
        counter.decrement()
    }
}

extension Duration {
    /// The duration in whole nanoseconds for Dispatch, rounded up (no
    /// overflow: the rounding is done on the quotient). A duration longer
    /// than `Int.max` nanoseconds (292 years) is `.never`: Dispatch then
    /// never runs the work.
    var dispatchInterval: DispatchTimeInterval {
        let (nanos, rest) = totalAttoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let rounded = rest > 0 ? nanos + 1 : nanos
        guard let exact = Int(exactly: rounded) else { return rounded > 0 ? .never : .nanoseconds(0) }
        return .nanoseconds(exact)
    }
}

/// The scheduler of the main queue.
public enum MainScheduler {
    /// Runs work on `DispatchQueue.main`, always asynchronously (even when
    /// already on the main thread), so an action never runs inside the code
    /// that scheduled it.
    public static let instance = DispatchQueueScheduler(queue: .main)
}
