extension ObservableType {
    /// Shifts every element, and the completion, later by `dueTime` on
    /// `scheduler`. Errors are **not** delayed: an error is forwarded at once and
    /// elements still waiting are dropped (RxSwift's rule).
    ///
    /// An element received at `t` is emitted at exactly `t + dueTime`. However
    /// many elements are waiting, the operator keeps a single pending timer (for
    /// the oldest one) and a queue of its own.
    public func delay(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let dueTime = checkedDelay(dueTime, "delay(_:scheduler:)")
        return Observable { observer in
            let sink = DelaySink(downstream: observer, dueTime: dueTime, scheduler: scheduler)
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

final class DelaySink<Element>: Sink<Element>, @unchecked Sendable {
    private let dueTime: Duration
    private let scheduler: any Scheduler
    private let lock = Lock()
    // Guarded by `lock`:
    private var queue = FIFOQueue<(due: SchedulerInstant, event: Event<Element>)>()
    private var pendingError: (any Error)?
    private var timerScheduled = false
    private var delivering = false
    private let timer = SerialDisposable()

    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next, .completed:
            let due = scheduler.now + dueTime
            let startTimer: Bool = lock.withLock {
                queue.append((due, event))
                guard !timerScheduled, !delivering else { return false }
                timerScheduled = true
                return true
            }
            if startTimer { timer.disposable = scheduler.schedule(after: dueTime) { [self] in deliver() } }
        case .error(let error):
            let deliverNow: Bool = lock.withLock {
                queue.removeAll()
                if delivering {
                    pendingError = error
                    return false
                }
                return true
            }
            if deliverNow { forwardError(error) }
        }
    }

    /// Delivers every event that is due, then re-arms the timer for the oldest
    /// one still waiting. Only one delivery runs at a time.
    private func deliver() {
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
            let now = scheduler.now
            var due: [Event<Element>] = []
            while let head = queue.first, head.due <= now {
                due.append(head.event)
                queue.removeFirst()
            }
            if due.isEmpty { break }
            lock.unlock()
            for event in due { forward(event) }
            lock.lock()
        }
        delivering = false
        let next = queue.first?.due
        if next != nil { timerScheduled = true }
        lock.unlock()
        if let next, !isDisposed {
            timer.disposable = scheduler.schedule(after: max(.zero, next - scheduler.now)) { [self] in deliver() }
        }
    }

    override func disposeResources() {
        timer.dispose()
    }
}
