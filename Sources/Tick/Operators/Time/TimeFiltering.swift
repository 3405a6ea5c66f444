// Time rule shared by every operator in this file: when the operator's own
// deadline and a source event fall on exactly the same instant, the deadline
// is handled first, whatever order the scheduler happens to run them in.

extension ObservableType {
    /// Emits an element only once `dueTime` has passed without a newer one:
    /// an element received at `t` is emitted at exactly `t + dueTime` unless
    /// another element arrived strictly before `t + dueTime`.
    ///
    /// - Exact deadline: an element arriving at exactly `t + dueTime` does
    ///   *not* cancel the waiting one; the waiting one is emitted first (RxSwift
    ///   decides this by scheduling order: with RxTest's hot observables the
    ///   newer element wins and the waiting one is lost).
    /// - On completion the waiting element is emitted at once, then the
    ///   completion. An error is forwarded at once and drops it.
    /// - One pending timer at most.
    public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let dueTime = checkedDelay(dueTime, "debounce(_:scheduler:)")
        return Observable { observer in
            let sink = DebounceSink(downstream: observer, dueTime: dueTime, scheduler: scheduler)
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    /// Emits at most one element per `dueTime` window.
    ///
    /// An element arriving when no window is open is emitted at once and opens
    /// a window of `dueTime`. With `latest: true` (the default) the last element
    /// received during the window is emitted when the window ends, at exactly
    /// `opening + dueTime`, and opens the next window; with `latest: false`
    /// elements received during a window are dropped.
    ///
    /// - Exact deadline: an element arriving at exactly the end of a window is
    ///   handled after the window ends: if an element was waiting, that one is
    ///   emitted and the new one waits for the next window's end; if none was,
    ///   the new one is emitted at once.
    /// - Completion while an element waits is delayed until the window ends
    ///   and follows that element (as in RxSwift); the source subscription is
    ///   disposed when the source completes. An error is forwarded at once
    ///   and drops the waiting element.
    /// - One pending timer at most.
    public func throttle(_ dueTime: Duration, latest: Bool = true, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let dueTime = checkedDelay(dueTime, "throttle(_:latest:scheduler:)")
        return Observable { observer in
            let sink = ThrottleSink(downstream: observer, dueTime: dueTime, latest: latest, scheduler: scheduler)
            sink.setUpstream(sink.sourceSubscription)
            sink.sourceSubscription.setDisposable(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    /// Emits the elements received during the first `duration` after
    /// subscription, then completes at exactly `subscription + duration` and
    /// disposes the source.
    ///
    /// Exact deadline: an element arriving at exactly `subscription + duration`
    /// is not emitted (the window is half-open, so `take(for: d)` and
    /// `skip(for: d)` split a sequence without overlap).
    public func take(for duration: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let duration = checkedDelay(duration, "take(for:scheduler:)")
        return Observable { observer in
            let sink = TakeForSink<Element>(downstream: observer, deadline: scheduler.now + duration, scheduler: scheduler)
            sink.timer.setDisposable(scheduler.schedule(after: duration) { [sink] in sink.expire() })
            if !sink.isDisposed { sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on))) }
            return sink
        }
    }

    /// Drops the elements received during the first `duration` after
    /// subscription; emits every later one.
    ///
    /// Exact deadline: an element arriving at exactly `subscription + duration`
    /// is emitted. Needs no timer: each element compares the scheduler's clock.
    public func skip(for duration: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let duration = checkedDelay(duration, "skip(for:scheduler:)")
        return Observable { observer in
            let opening = scheduler.now + duration
            return lift { (sink: Sink<Element>) in
                { event in
                    if case .next = event, scheduler.now < opening { return }
                    sink.forward(event)
                }
            }.subscribe(observer)
        }
    }

    /// Each time `sampler` emits, emits the latest element the source emitted
    /// since the previous sample, if any (otherwise `defaultValue`, if given).
    ///
    /// When the source completes, the completion is emitted at the next
    /// sample (after the last element, if one is waiting). The sampler's
    /// completion counts as one last sample: it emits the waiting element (or
    /// `defaultValue`), and completes the result if the source has completed;
    /// if the source has not, the result does not complete (as in RxSwift)
    /// and ends only with an error from the source or by disposal. An error
    /// from either ends it.
    public func sample<Sampler: ObservableType>(_ sampler: Sampler, defaultValue: Element? = nil) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = SampleSink<Element>(downstream: observer, defaultValue: defaultValue)
            sink.run(source, sampler)
            return sink
        }
    }
}

final class DebounceSink<Element>: SerializingSink<Element>, @unchecked Sendable {
    private let dueTime: Duration
    private let scheduler: any Scheduler
    private let timer = SerialDisposable()
    // Guarded by `lock`:
    private var waiting: (element: Element, due: SchedulerInstant, id: UInt64)?
    private var nextID: UInt64 = 0

    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = scheduler.now
            var id: UInt64 = 0
            locked {
                if let waiting, waiting.due <= now { enqueueLocked(.next(waiting.element)) }
                nextID &+= 1
                id = nextID
                waiting = (element, now + dueTime, id)
            }
            guard !isDisposed else { return }
            timer.disposable = scheduler.schedule(after: dueTime) { [self] in fire(id) }
        case .error:
            locked {
                waiting = nil
                enqueueLocked(event)
            }
        case .completed:
            locked {
                if let waiting { enqueueLocked(.next(waiting.element)) }
                waiting = nil
                enqueueLocked(.completed)
            }
        }
    }

    private func fire(_ id: UInt64) {
        locked {
            guard let waiting, waiting.id == id else { return }
            self.waiting = nil
            enqueueLocked(.next(waiting.element))
        }
    }

    override func disposeResources() { timer.dispose() }
}

final class ThrottleSink<Element>: SerializingSink<Element>, @unchecked Sendable {
    private let dueTime: Duration
    private let latest: Bool
    private let scheduler: any Scheduler
    private let timer = SerialDisposable()
    /// The source subscription, disposed when the source completes.
    let sourceSubscription = SingleAssignmentDisposable()
    // Guarded by `lock`:
    private var lastSent: SchedulerInstant?
    private var waiting: Element?
    /// The end of the window the timer is armed for, if it is armed.
    private var timerDue: SchedulerInstant?
    private var completionWaits = false

    init(downstream: AnyObserver<Element>, dueTime: Duration, latest: Bool, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        let now = scheduler.now
        switch event {
        case .next(let element):
            var arm: SchedulerInstant?
            locked {
                closeWindowLocked(ifDueAt: now)
                if let lastSent, now - lastSent < dueTime {
                    guard latest else { return }
                    waiting = element
                    if timerDue == nil {
                        let due = lastSent + dueTime
                        timerDue = due
                        arm = due
                    }
                } else {
                    lastSent = now
                    enqueueLocked(.next(element))
                }
            }
            if let arm, !isDisposed {
                timer.disposable = scheduler.schedule(after: arm - now) { [self] in fire(due: arm) }
            }
        case .error:
            locked {
                waiting = nil
                enqueueLocked(event)
            }
        case .completed:
            locked {
                closeWindowLocked(ifDueAt: now)
                if waiting != nil { completionWaits = true } else { enqueueLocked(.completed) }
            }
            sourceSubscription.dispose()
        }
    }

    /// The window's end: emits the waiting element (which opens a new window).
    private func closeWindowLocked(ifDueAt now: SchedulerInstant) {
        guard let due = timerDue, due <= now else { return }
        timerDue = nil
        if let element = waiting {
            waiting = nil
            lastSent = due
            enqueueLocked(.next(element))
        }
        if completionWaits { enqueueLocked(.completed) }
    }

    private func fire(due: SchedulerInstant) {
        locked {
            guard timerDue == due else { return }
            closeWindowLocked(ifDueAt: due)
        }
    }

    override func disposeResources() { timer.dispose() }
}

final class TakeForSink<Element>: SerializingSink<Element>, @unchecked Sendable {
    let timer = SingleAssignmentDisposable()
    private let deadline: SchedulerInstant
    private let scheduler: any Scheduler

    init(downstream: AnyObserver<Element>, deadline: SchedulerInstant, scheduler: any Scheduler) {
        self.deadline = deadline
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        let expired = scheduler.now >= deadline
        locked { enqueueLocked(expired && !event.isStopEvent ? .completed : event) }
    }

    func expire() {
        locked { enqueueLocked(.completed) }
    }

    override func disposeResources() { timer.dispose() }
}

final class SampleSink<Element>: MultiSourceSink<Element>, @unchecked Sendable {
    private let defaultValue: Element?
    // Guarded by `lock`:
    private var latest: Element?
    private var sourceDone = false

    init(downstream: AnyObserver<Element>, defaultValue: Element?) {
        self.defaultValue = defaultValue
        super.init(downstream: downstream)
    }

    func run<Sampler: ObservableType>(_ source: Observable<Element>, _ sampler: Sampler) {
        subscribe(source) { [self] event in
            locked {
                switch event {
                case .next(let element): latest = element
                case .error(let error): enqueueLocked(.error(error))
                case .completed: sourceDone = true
                }
            }
        }
        subscribe(sampler) { [self] event in
            locked {
                switch event {
                case .next, .completed:
                    // The sampler's completion is one last sample (RxSwift's rule).
                    if let element = latest ?? defaultValue { enqueueLocked(.next(element)) }
                    latest = nil
                    if sourceDone { enqueueLocked(.completed) }
                case .error(let error): enqueueLocked(.error(error))
                }
            }
        }
    }
}
