@_spi(TickInternals) import Tick

/// Lets the disposables of scheduled work reach their scheduler without
/// keeping it alive: one per scheduler, shared by all of them.
final class CancellationHandle: @unchecked Sendable {
    weak var scheduler: TestScheduler?
}

/// The disposable for one pending entry of a ``TestScheduler``: two words, no
/// allocation of its own. Disposing it cancels the entry if it has not run;
/// disposing again, or after it ran, does nothing.
struct ScheduledEntry: Disposable {
    let handle: CancellationHandle
    let sequence: UInt64

    func dispose() {
        handle.scheduler?.cancel(sequence)
    }
}

/// Periodic work on a test scheduler: each run is due exactly `period` after
/// the previous due time, never after the time it actually ran.
final class PeriodicTask: Disposable, @unchecked Sendable {
    private weak var scheduler: TestScheduler?
    private let period: Duration
    private var action: (() -> Void)?
    private let lock = Lock()
    private var pending: ScheduledEntry?
    private var disposed = false

    init(scheduler: TestScheduler, period: Duration, action: @escaping () -> Void) {
        self.scheduler = scheduler
        self.period = period
        self.action = action
    }

    func start(at due: SchedulerInstant) {
        guard let scheduler else { return }
        let entry = scheduler.enqueue(due: due) { [self] in fire(due: due) }
        let keep = lock.withLock { () -> Bool in
            guard !disposed else { return false }
            pending = entry
            return true
        }
        if !keep { entry.dispose() }
    }

    private func fire(due: SchedulerInstant) {
        let action = lock.withLock { disposed ? nil : self.action }
        action?()
        start(at: due + period)
    }

    func dispose() {
        let entry = lock.withLock { () -> ScheduledEntry? in
            guard !disposed else { return nil }
            disposed = true
            action = nil
            defer { pending = nil }
            return pending
        }
        entry?.dispose()
    }
}
