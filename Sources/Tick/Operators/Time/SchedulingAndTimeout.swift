extension ObservableType {
    /// Subscribes to the source `dueTime` after subscription: exactly at
    /// `subscription + dueTime`. Disposing before then cancels the pending
    /// subscription (the source is never subscribed).
    public func delaySubscription(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let dueTime = checkedDelay(dueTime, "delaySubscription(_:scheduler:)")
        return Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            let timer = scheduler.schedule(after: dueTime) {
                guard !sink.isDisposed else { return }
                sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.forward)))
            }
            return Disposables.create(timer, sink)
        }
    }

    /// Fails with ``TickError/timeout`` if no event arrives within `dueTime`
    /// of subscription, or within `dueTime` of the previous element.
    ///
    /// Exact deadline: an event arriving at exactly the deadline is too late:
    /// the timeout wins, whatever order the scheduler runs the two in (RxSwift
    /// lets the scheduling order decide; with RxTest's hot observables the
    /// element wins there). One pending timer at most.
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        timeout(dueTime, fallback: nil, scheduler: scheduler)
    }

    /// Switches to `other` if no event arrives within `dueTime` of
    /// subscription, or within `dueTime` of the previous element. The source
    /// subscription is disposed at the switch. The exact-deadline rule is that
    /// of ``timeout(_:scheduler:)``.
    public func timeout<Other: ObservableType>(
        _ dueTime: Duration, other: Other, scheduler: any Scheduler
    ) -> Observable<Element> where Other.Element == Element {
        timeout(dueTime, fallback: other.asObservable(), scheduler: scheduler)
    }

    private func timeout(_ dueTime: Duration, fallback: Observable<Element>?, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let dueTime = checkedDelay(dueTime, "timeout(_:scheduler:)")
        return Observable { observer in
            let sink = TimeoutSink(downstream: observer, dueTime: dueTime, fallback: fallback, scheduler: scheduler)
            sink.run(source)
            return sink
        }
    }

    /// Delivers every event on `scheduler`, in order.
    ///
    /// Events wait in a queue of the operator's own; at most one scheduled
    /// item is pending at any time, however many events wait, and each
    /// scheduled action delivers one event, scheduling the next action if more
    /// wait (RxSwift's rule). Errors are not reordered: they are delivered
    /// after the elements before them. On a `TestScheduler` delivery happens
    /// after the action that produced the event, at the same virtual time, or
    /// with `simulateProcessingDelay` one frame later per event
    /// (`just(1).observe(on:)` from 200: `next@201`, `completed@202`).
    public func observe(on scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = ObserveOnSink(downstream: observer, scheduler: scheduler)
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    /// Subscribes to the source on `scheduler`, and disposes that subscription
    /// on `scheduler` too. Events are delivered wherever the source sends them.
    ///
    /// The source is subscribed as it is, not through ``asObservable()``
    /// (as in RxSwift): its subscription ends when the disposal scheduled on
    /// `scheduler` runs, also after a terminal event.
    public func subscribe(on scheduler: any Scheduler) -> Observable<Element> {
        let source = self
        return Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            let subscription = SingleAssignmentDisposable()
            let pending = scheduler.schedule {
                guard !sink.isDisposed else { return }
                subscription.setDisposable(source.subscribe(AnyObserver(eventHandler: sink.forward)))
            }
            let disposeOnScheduler = Disposables.create(with: {
                pending.dispose()
                scheduler.schedule { subscription.dispose() }
            })
            sink.setUpstream(disposeOnScheduler)
            return sink
        }
    }
}

private enum TimeoutOutcome { case ignore, forwarded(rearm: UInt64?), timedOut }

final class TimeoutSink<Element>: SerializingSink<Element>, @unchecked Sendable {
    private let dueTime: Duration
    private let fallback: Observable<Element>?
    private let scheduler: any Scheduler
    private let subscription = SerialDisposable()
    private let timer = SerialDisposable()
    // Guarded by `lock`:
    private var deadline: SchedulerInstant
    private var id: UInt64 = 0
    private var switched = false

    init(downstream: AnyObserver<Element>, dueTime: Duration, fallback: Observable<Element>?, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.fallback = fallback
        self.scheduler = scheduler
        deadline = scheduler.now + dueTime
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Element>) {
        arm(id: 0, after: dueTime)
        let first = SingleAssignmentDisposable()
        subscription.disposable = first
        first.setDisposable(source.subscribe(AnyObserver(eventHandler: on)))
    }

    private func arm(id: UInt64, after delay: Duration) {
        guard !isDisposed else { return }
        timer.disposable = scheduler.schedule(after: delay) { [self] in fire(id) }
    }

    private func on(_ event: Event<Element>) {
        let now = scheduler.now
        var outcome = TimeoutOutcome.ignore
        locked {
            guard !switched else { return }
            if now >= deadline {
                switched = true
                outcome = .timedOut
                return
            }
            enqueueLocked(event)
            if case .next = event {
                id &+= 1
                deadline = now + dueTime
                outcome = .forwarded(rearm: id)
            } else {
                switched = true
                outcome = .forwarded(rearm: nil)
            }
        }
        switch outcome {
        case .ignore, .forwarded(rearm: nil): break
        case .forwarded(rearm: let id?): arm(id: id, after: dueTime)
        case .timedOut: switchToFallback()
        }
    }

    private func fire(_ id: UInt64) {
        let timedOut: Bool = lock.withLock {
            guard !switched, self.id == id else { return false }
            switched = true
            return true
        }
        if timedOut { switchToFallback() }
    }

    private func switchToFallback() {
        guard let fallback else {
            locked { enqueueLocked(.error(TickError.timeout)) }
            return
        }
        let second = SingleAssignmentDisposable()
        subscription.disposable = second
        second.setDisposable(fallback.subscribe(AnyObserver { [self] event in
            locked { enqueueLocked(event) }
        }))
    }

    override func disposeResources() {
        timer.dispose()
        subscription.dispose()
    }
}

final class ObserveOnSink<Element>: Sink<Element>, @unchecked Sendable {
    private let scheduler: any Scheduler
    private let lock = Lock()
    private let pending = SerialDisposable()
    // Guarded by `lock`:
    private var queue = FIFOQueue<Event<Element>>()
    /// An action is scheduled or running (so `on` schedules none).
    private var scheduled = false
    /// A `deliver` is running: a nested one (a scheduler that ran the
    /// rescheduled action at once) only sets `rerun`, so delivery loops
    /// instead of recursing once per queued event.
    private var delivering = false
    private var rerun = false

    init(downstream: AnyObserver<Element>, scheduler: any Scheduler) {
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        let schedule: Bool = lock.withLock {
            queue.append(event)
            guard !scheduled else { return false }
            scheduled = true
            return true
        }
        if schedule, !isDisposed { pending.disposable = scheduler.schedule { [self] in deliver() } }
    }

    /// Delivers the oldest queued event, then schedules a new action for the
    /// next one if any is queued: one event per scheduled action, as RxSwift's
    /// observeOn does (on a `TestScheduler` with `simulateProcessingDelay`,
    /// consecutive events go out one frame apart).
    private func deliver() {
        let enter: Bool = lock.withLock {
            if delivering {
                rerun = true
                return false
            }
            delivering = true
            return true
        }
        guard enter else { return }
        while true {
            let event: Event<Element>? = lock.withLock {
                if let event = queue.removeFirst() { return event }
                scheduled = false
                delivering = false
                return nil
            }
            guard let event else { return }
            guard !isDisposed else {
                lock.withLock { delivering = false }
                return
            }
            forward(event)
            if event.isStopEvent { return }
            let more: Bool = lock.withLock {
                if queue.isEmpty {
                    scheduled = false
                    delivering = false
                    return false
                }
                rerun = false
                return true
            }
            guard more, !isDisposed else { return }
            pending.disposable = scheduler.schedule { [self] in deliver() }
            // If the scheduler ran the action already (synchronously, or on
            // another thread while this one still delivers), deliver here.
            let again: Bool = lock.withLock {
                if rerun {
                    rerun = false
                    return true
                }
                delivering = false
                return false
            }
            guard again else { return }
        }
    }

    override func disposeResources() {
        pending.dispose()
        lock.withLock { queue.removeAll() }
    }
}
