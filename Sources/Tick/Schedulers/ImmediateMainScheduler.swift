import Dispatch
import Synchronization

extension MainScheduler {
    /// Runs work on the main queue, but at once when it is scheduled from the
    /// main queue and none of its own work is waiting or running: UI code that
    /// is already on the main thread is not delayed to the next turn of the
    /// main queue (combine-schedulers' `UIScheduler`, RxSwift's
    /// `MainScheduler.instance`). See ``ImmediateMainScheduler``.
    public static let immediateWhenOnMain = ImmediateMainScheduler()
}

/// The scheduler of ``MainScheduler/immediateWhenOnMain``: the main queue,
/// without the hop when the caller is already there.
///
/// `schedule(_:)` (and a zero delay) runs the action **synchronously** when
/// called on the main queue while none of this scheduler's work is queued or
/// running; otherwise it queues the action on the main queue. So its work
/// still runs one action at a time and in the order it was scheduled: an
/// action scheduled from inside another one, or behind work queued from a
/// background thread, waits its turn. Delayed and periodic work run on the
/// main queue like ``MainScheduler/instance``, one at a time with the rest.
public final class ImmediateMainScheduler: Scheduler, Sendable {
    private let main = DispatchQueueScheduler(queue: .main)
    /// This scheduler's actions that are queued on the main queue or running.
    private let outstanding = Atomic<Int>(0)

    /// A scheduler of its own: the order rule holds among the work of one
    /// instance. Most code shares ``MainScheduler/immediateWhenOnMain``.
    public init() {}

    public var now: SchedulerInstant { main.now }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        if MainQueue.isCurrent, outstanding.load(ordering: .acquiring) == 0 {
            counted(action)
            return Disposables.create()
        }
        outstanding.add(1, ordering: .acquiringAndReleasing)
        let item = ScheduledAction(action)
        DispatchQueue.main.async {
            item.run()
            self.outstanding.subtract(1, ordering: .acquiringAndReleasing)
        }
        return item
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let delay = checkedDelay(delay, "MainScheduler.immediateWhenOnMain.schedule(after:)")
        if delay == .zero { return schedule(action) }
        return main.schedule(after: delay) { self.counted(action) }
    }

    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        return main.schedulePeriodic(after: delay, period: period) { self.counted(action) }
    }

    /// Runs `action` on the main queue, counted as running (so work it
    /// schedules is queued, not nested).
    private func counted(_ action: () -> Void) {
        outstanding.add(1, ordering: .acquiringAndReleasing)
        defer { outstanding.subtract(1, ordering: .acquiringAndReleasing) }
        action()
    }
}
