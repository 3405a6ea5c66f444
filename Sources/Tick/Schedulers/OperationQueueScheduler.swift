import Dispatch
import Foundation
import Synchronization

/// A scheduler that runs work as operations on an `OperationQueue` (the role
/// of RxSwift's `OperationQueueScheduler`): the queue's
/// `maxConcurrentOperationCount` decides how many actions run at once, and
/// every action is added with ``queuePriority``.
///
/// Safe to use from any thread. What holds:
/// - with `maxConcurrentOperationCount == 1` actions run one at a time; with a
///   larger count they may run at the same time (see
///   ``ConcurrentDispatchQueueScheduler`` for what that means for your code;
///   Tick's operators serialize their own deliveries either way);
/// - immediate work of equal priority starts in the order it was scheduled, as
///   `OperationQueue` starts ready operations of equal priority in the order
///   they were added;
/// - delayed work waits on a Dispatch timer, then is added to the queue: it
///   never runs early (the delay is rounded *up* to the next nanosecond), and
///   may run later if the queue is busy;
/// - periodic work is due at `start + delay + k × period` (no drift) and one
///   periodic schedule never overlaps itself: a tick that comes while the
///   previous run is still queued or running is skipped;
/// - disposing cancels work that has not started (its operation is cancelled,
///   so it leaves the queue without running) and stops periodic work after the
///   current run.
public final class OperationQueueScheduler: Scheduler, @unchecked Sendable {
    // Sendable: both stored properties are immutable, and `OperationQueue`
    // is safe to use from any thread.

    /// The queue the work runs on.
    public let operationQueue: OperationQueue
    /// The priority every operation is added with.
    public let queuePriority: Operation.QueuePriority

    /// A scheduler adding its work to `operationQueue` with `queuePriority`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    public var now: SchedulerInstant { .monotonicNow }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        let work = QueuedOperation(action)
        enqueue(work)
        return work
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let delay = checkedDelay(delay, "OperationQueueScheduler.schedule(after:)")
        let work = QueuedOperation(action)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) { [self] in
            guard !work.isDisposed else { return }
            enqueue(work)
        }
        return work
    }

    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        guard checkedPeriod(period, "OperationQueueScheduler.schedulePeriodic") else { return Disposables.create() }
        let delay = checkedDelay(delay, "OperationQueueScheduler.schedulePeriodic")
        let periodic = PeriodicOperation(action)
        // The timer only decides when; each run is an operation on the queue.
        periodic.attach(PeriodicDispatchTimer(
            queue: DispatchQueue(label: "Tick.OperationQueueScheduler.timer"),
            start: .now() + delay.dispatchInterval, period: period.dispatchInterval
        ) { [self, periodic] in
            guard periodic.startRun() else { return }
            let operation = BlockOperation { periodic.run() }
            operation.queuePriority = queuePriority
            operationQueue.addOperation(operation)
        })
        return periodic
    }

    private func enqueue(_ work: QueuedOperation) {
        let operation = BlockOperation { work.run() }
        operation.queuePriority = queuePriority
        work.attach(operation)
        operationQueue.addOperation(operation)
    }
}

/// One action for an ``OperationQueueScheduler``: runs at most once, never
/// after it was disposed; disposing also cancels its operation, so a queued
/// operation leaves the queue without waiting for its turn.
private final class QueuedOperation: Cancelable, @unchecked Sendable {
    // Sendable: `item` is thread-safe on its own; `operation` is guarded by
    // `lock`.
    private let item: ScheduledAction
    private let lock = Lock()
    private var operation: Operation?

    init(_ action: @escaping () -> Void) {
        item = ScheduledAction(action)
    }

    var isDisposed: Bool { item.isDisposed }

    /// Remembers the operation that will run this action, or cancels it at
    /// once if the action was disposed meanwhile.
    func attach(_ operation: Operation) {
        let disposed = lock.withLock {
            self.operation = operation
            return item.isDisposed
        }
        if disposed { operation.cancel() }
    }

    func run() {
        lock.withLock { operation = nil }
        item.run()
    }

    func dispose() {
        guard !item.isDisposed else { return }
        item.dispose()
        let operation = lock.withLock {
            defer { self.operation = nil }
            return self.operation
        }
        operation?.cancel()
    }
}

/// Periodic work for an ``OperationQueueScheduler``: a Dispatch timer adds one
/// operation per tick, unless the previous run has not finished.
private final class PeriodicOperation: Cancelable, @unchecked Sendable {
    // Sendable: `action` is immutable and runs only in the one run that
    // `running` admits at a time; `running` and `disposed` are atomics;
    // `timer` is guarded by `lock`.
    private let action: () -> Void
    private let running = Atomic<Bool>(false)
    private let disposed = Atomic<Bool>(false)
    private let lock = Lock()
    private var timer: PeriodicDispatchTimer?

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    /// Keeps the timer that drives this, and stops it if this was disposed
    /// before it was attached.
    func attach(_ timer: PeriodicDispatchTimer) {
        lock.withLock { self.timer = timer }
        if isDisposed { timer.dispose() }
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Claims the next run; `false` if one is still queued or running, or if
    /// this was disposed.
    func startRun() -> Bool {
        guard !isDisposed else { return false }
        return running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    func run() {
        if !isDisposed { action() }
        running.store(false, ordering: .releasing)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        lock.withLock { timer }?.dispose()
    }
}
