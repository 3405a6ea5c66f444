extension ObservableType {
    /// Shifts every element, and the completion, later by `dueTime` on
    /// `scheduler`. Errors are **not** delayed: an error is forwarded at once and
    /// elements still waiting are dropped (RxSwift's rule).
    ///
    /// An element received at `t` is emitted at exactly `t + dueTime`. However
    /// many elements are waiting, the operator keeps a single pending timer (for
    /// the oldest one) and a queue of its own.
    ///
    /// The source subscription is disposed as soon as the source terminates,
    /// not when the delayed completion goes out (as in RxSwift).
    @inlinable
    public func delay(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let dueTime = checkedDelay(dueTime, "delay(_:scheduler:)")
        return Observable { observer in
            let sink = DelaySink(downstream: observer, dueTime: dueTime, scheduler: scheduler)
            sink.setUpstream(sink.sourceSubscription)
            sink.sourceSubscription.setDisposable(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline
final class DelaySink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline let dueTime: Duration
    @usableFromInline let scheduler: any Scheduler
    @usableFromInline let lock = Lock()
    // Guarded by `lock` (so runtime exclusivity checks are off):
    @usableFromInline @exclusivity(unchecked) var queue = FIFOQueue<(due: SchedulerInstant, event: Event<Element>)>()
    @usableFromInline @exclusivity(unchecked) var pendingError: (any Error)?
    @usableFromInline @exclusivity(unchecked) var timerScheduled = false
    @usableFromInline @exclusivity(unchecked) var delivering = false
    /// The timer's action, made once (not per timer). It holds the sink, a
    /// cycle that `disposeResources` breaks.
    @usableFromInline @exclusivity(unchecked) var deliverAction: (() -> Void)?
    @usableFromInline let timer = SerialDisposable()
    /// The source subscription, disposed when the source completes.
    @usableFromInline let sourceSubscription = SingleAssignmentDisposable()

    @inlinable
    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
        deliverAction = { [self] in deliver() }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next, .completed:
            let due = scheduler.now + dueTime
            lock.lock()
            queue.append((due, event))
            let action = (timerScheduled || delivering) ? nil : deliverAction
            if action != nil { timerScheduled = true }
            lock.unlock()
            if let action { timer.disposable = scheduler.schedule(after: dueTime, action) }
            if event.isCompleted { sourceSubscription.dispose() }
        case .error(let error):
            lock.lock()
            queue.removeAll()
            let deliverNow = !delivering
            if !deliverNow { pendingError = error }
            lock.unlock()
            if deliverNow { forwardError(error) }
        }
    }

    /// Delivers every event that is due, one at a time outside the lock, then
    /// re-arms the timer for the oldest one still waiting. Only one delivery
    /// runs at a time.
    @inlinable
    func deliver() {
        lock.lock()
        timerScheduled = false
        delivering = true
        while true {
            if let error = pendingError {
                pendingError = nil
                lock.unlock()
                forwardError(error)
                return
            }
            guard let head = queue.first, head.due <= scheduler.now else { break }
            queue.removeFirst()
            lock.unlock()
            forward(head.event)
            lock.lock()
        }
        delivering = false
        let next = queue.first?.due
        let action = next == nil ? nil : deliverAction
        if action != nil { timerScheduled = true }
        lock.unlock()
        if let next, let action, !isDisposed {
            timer.disposable = scheduler.schedule(after: max(.zero, next - scheduler.now), action)
        }
    }

    @usableFromInline
    override func disposeResources() {
        timer.dispose()
        lock.withLock { deliverAction = nil }
    }
}
