import Tick


/// A hot observable: its events happen at absolute times, whether or not
/// anyone is subscribed. A subscriber sees the events after it subscribed.
///
/// Events are scheduled when the observable is created; events at the same
/// time happen in the order given. Events at times before the scheduler's
/// clock at creation are never emitted (they are in the past). The recording
/// is replayed verbatim, even events after a terminal one, so a test can
/// prove that an operator ignores them.
public final class HotObservable<Element>: TestableObservable<Element> {
    /// The scheduler the events happen on. A test observable refers to it
    /// weakly, so it never keeps its scheduler alive: a scheduler its test
    /// lets go of is released, and its unchecked marble expectations are
    /// reported then. Read after the scheduler was released, this is a new,
    /// idle scheduler (the observable emits nothing any more).
    public var scheduler: TestScheduler { owner ?? TestScheduler() }
    /// The scheduler's link, set once at creation: a weak reference to it
    /// that is not a Swift `weak` one, which would move the scheduler's
    /// reference count to a side table (see `SchedulerLink`).
    @usableFromInline let link: SchedulerLink
    /// The scheduler, or nil once it is gone (safe from any thread).
    @inlinable var owner: TestScheduler? { link.scheduler }
    @usableFromInline let log = SubscriptionLog()
    @usableFromInline let lock = Lock()
    /// Guarded by `lock` (runtime exclusivity checks are off).
    @usableFromInline @exclusivity(unchecked) var observers: [(key: Int, observer: AnyObserver<Element>)] = []
    @usableFromInline @exclusivity(unchecked) var nextKey = 0
    /// The events whose actions are scheduled and have not run, in the order
    /// they run, and the index of the next (see `scheduleEvents`). Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var queued: [Event<Element>] = []
    @usableFromInline @exclusivity(unchecked) var nextQueued = 0

    @inlinable
    init(scheduler: TestScheduler, events: [Recorded<Event<Element>>]) {
        self.link = scheduler.handle
        super.init(recordedEvents: events)
        scheduleEvents()
    }

    /// A hot observable of the marble API: its events are scheduled when the
    /// scheduler next starts running (`flush`, `run`, `advance`), after
    /// everything scheduled before then, as RxJS sets up hot observables at
    /// flush. So within one frame an `expect` subscription (or its `!`) made
    /// before the flush comes before this observable's event.
    @usableFromInline
    init(deferredOn scheduler: TestScheduler, events: [Recorded<Event<Element>>]) {
        self.link = scheduler.handle
        super.init(recordedEvents: events)
        // Weakly: a scheduler dropped before it ran must not be kept alive by
        // its own pending setups.
        if !scheduler.marbleExpectations.deferUntilRun(scheduler: scheduler, { [weak self] in self?.scheduleEvents() }) {
            scheduleEvents()
        }
    }

    /// Inlinable, so the per-event closure is specialized for the element
    /// type in the caller's module (unspecialized, instantiating its generic
    /// metadata per event doubled the cost of a hot observable's event).
    @inlinable
    func scheduleEvents() {
        guard let scheduler = owner else { return }
        let now = scheduler.clock
        // An event whose time has already passed has happened: it is kept in
        // `recordedEvents` but never emitted (a marble diagram's events
        // before its `^` are such events).
        let upcoming = recordedEvents.filter { $0.time >= now }
        if Self.actionsRunInSchedulingOrder(upcoming, now: now, on: scheduler) {
            // Each action captures only the observable (no context to
            // allocate per event) and emits the next event of `queued`: the
            // actions run in the order they were scheduled, so the n-th to
            // run is the n-th event.
            lock.withLock {
                queued = upcoming.map(\.value)
                nextQueued = 0
            }
            for recorded in upcoming {
                scheduler.scheduleAt(recorded.time) { [self] in emitNextQueued() }
            }
            return
        }
        for recorded in upcoming {
            let event = recorded.value
            // The scheduler's queue keeps the observable alive until its last
            // event, whether or not the test holds on to it (as in RxTest).
            scheduler.scheduleAt(recorded.time) { [self] in emit(event) }
        }
    }

    /// Whether actions scheduled for `events`, in order, will run in that
    /// order: their times never decrease (``TestScheduler/scheduleAt(_:action:)``
    /// moves none of them: its times are absolute, even with
    /// `simulateProcessingDelay`). A recording given out of time order takes
    /// the other path, one closure per event.
    @inlinable
    static func actionsRunInSchedulingOrder(
        _ events: [Recorded<Event<Element>>], now: TestTime, on scheduler: TestScheduler
    ) -> Bool {
        var previous = now
        for recorded in events {
            guard recorded.time >= previous else { return false }
            previous = recorded.time
        }
        return true
    }

    @inlinable
    func emitNextQueued() {
        // The event and the subscribers in one turn of the lock.
        let (event, snapshot) = lock.withLock { () -> (Event<Element>, [(key: Int, observer: AnyObserver<Element>)]) in
            let event = queued[nextQueued]
            nextQueued += 1
            if nextQueued == queued.count {
                queued = []
                nextQueued = 0
            }
            return (event, observers)
        }
        deliver(event, to: snapshot)
    }

    @inlinable
    func emit(_ event: Event<Element>) {
        deliver(event, to: lock.withLock { observers })
    }

    @inlinable
    func deliver(_ event: Event<Element>, to snapshot: [(key: Int, observer: AnyObserver<Element>)]) {
        snapshot.withUnsafeBufferPointer { entries in
            for index in entries.indices { entries[index].observer.on(event) }
        }
    }

    public override var subscriptions: [Subscription] { log.all }

    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        // Its scheduler released, nothing can happen any more.
        guard let scheduler = owner else { return Disposables.create() }
        let index = log.subscribed(at: scheduler.clock)
        let key = lock.withLock {
            defer { nextKey += 1 }
            observers.append((nextKey, AnyObserver(observer)))
            return nextKey
        }
        return Disposables.create(with: { [self] in
            if let clock = owner?.clock { log.unsubscribed(index, at: clock) }
            lock.withLock { observers.removeAll { $0.key == key } }
        })
    }
}

extension TestScheduler {
    /// A hot observable emitting `events` at their absolute times.
    @inlinable
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> HotObservable<Element> {
        HotObservable(scheduler: self, events: events)
    }
}

// @unchecked: the recording is immutable, the scheduler's link is set once
// (and thread-safe), and the observer list is guarded by `lock`. Sendable only when the elements are, since they are handed to
// observers on the thread that drives the scheduler.
extension HotObservable: @unchecked Sendable where Element: Sendable {}
