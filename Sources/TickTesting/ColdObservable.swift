import Synchronization
import Tick

/// A cold observable: each subscription replays the recorded events with times
/// relative to the moment of subscription.
public final class ColdObservable<Element>: TestableObservable<Element> {
    /// The scheduler the events happen on. A test observable refers to it
    /// weakly, so it never keeps its scheduler alive: a scheduler its test
    /// lets go of is released, and its unchecked marble expectations are
    /// reported then. Read after the scheduler was released, this is a new,
    /// idle scheduler (the observable emits nothing any more).
    public var scheduler: TestScheduler { owner ?? TestScheduler() }
    /// The scheduler's link, set once at creation (not a `weak` reference:
    /// see ``HotObservable/link``).
    @usableFromInline let link: SchedulerLink
    /// The scheduler, or nil once it is gone (safe from any thread).
    @inlinable var owner: TestScheduler? { link.scheduler }
    /// The scheduler's marble lock: it guards `entries` and each
    /// subscription's observer (see ``ColdSubscription``).
    @usableFromInline let lock: Lock
    /// The subscription log, guarded by `lock` (runtime exclusivity checks
    /// are off). Kept here rather than in a ``SubscriptionLog`` of its own:
    /// one allocation less per cold observable (its subscriptions refer to
    /// the observable instead).
    @usableFromInline @exclusivity(unchecked) var entries = SubscriptionEntries()
    /// Makes one subscription, schedules its events relative to now and
    /// returns it (the last argument: whether it keeps the grammar, see
    /// ``asObservable()``). Made by ``TestScheduler/createColdObservable(_:)``,
    /// which is inlinable, so that where the element type is known (a
    /// marble test's `cold`) this is specialized code, with specialized
    /// per-event actions: `subscribe` itself is usually reached through the
    /// class's vtable from an operator's generic code (an operator sees the
    /// observable as a `TestableObservable`), and there generic per-event
    /// actions looked up `Event<Element>`'s metadata each time they ran,
    /// naming `ColdSubscription<Element>` looked up its metadata (about 330
    /// instructions), and so did converting it to `any Disposable` (its
    /// conformance's witness table, about 330 more).
    @usableFromInline let subscribeWith:
        (ColdObservable<Element>, TestScheduler, Int, AnyObserver<Element>, Bool) -> any Disposable
    /// Lets go of a subscription's observer when it is disposed, also
    /// specialized (see ``ColdSubscription/dispose()``).
    @usableFromInline let releaseObserver: (ColdSubscription<Element>) -> Void
    /// `AnyObserver<Element>.self`, given by the specialized code that makes
    /// this observable: `subscribe` compares its observer's type with it
    /// rather than have `AnyObserver(observer)` look up that metadata at
    /// each subscription (about 330 instructions).
    @usableFromInline let anyObserverType: Any.Type

    @usableFromInline
    init(
        scheduler: TestScheduler, events: [Recorded<Event<Element>>],
        releaseObserver: @escaping (ColdSubscription<Element>) -> Void,
        subscribeWith: @escaping (ColdObservable<Element>, TestScheduler, Int, AnyObserver<Element>, Bool) ->
            any Disposable,
        anyObserverType: Any.Type
    ) {
        self.releaseObserver = releaseObserver
        self.subscribeWith = subscribeWith
        self.anyObserverType = anyObserverType
        self.link = scheduler.handle
        // The scheduler's marble lock (see `MarbleExpectationStore.lock`):
        // one lock less per cold observable.
        self.lock = scheduler.marbleExpectations.lock
        super.init(recordedEvents: events)
    }

    public override var subscriptions: [Subscription] { lock.withLock { entries.all } }

    /// Logs a subscription at `time`; returns its index.
    @usableFromInline
    func subscribed(at time: TestTime) -> Int { lock.withLock { entries.subscribed(at: time) } }

    /// Logs the end of the subscription at `index`.
    @usableFromInline
    func unsubscribed(_ index: Int, at time: TestTime) { lock.withLock { entries.unsubscribed(index, at: time) } }

    /// Schedules the recorded events relative to now (see ``subscribeWith``).
    @inlinable
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        // Its scheduler released, nothing can happen any more.
        guard let scheduler = owner else { return Disposables.create() }
        let index = subscribed(at: scheduler.clock)
        // What `AnyObserver(observer)` does (the same rule as its
        // initializer in Observer.swift), with the metatype given at creation
        // (see ``anyObserverType``); an SPI initializer taking it cannot be
        // called here, since this `@inlinable` code is public.
        let wrapped =
            Observer.self == anyObserverType
            ? unsafeBitCast(observer, to: AnyObserver<Element>.self) : AnyObserver(eventHandler: observer.on)
        return subscribeWith(self, scheduler, index, wrapped, false)
    }

    /// This observable as an `Observable`. Its subscriptions keep the
    /// grammar themselves, as the sink of the default `asObservable()`
    /// does over any source, without that sink: nothing is sent after a
    /// terminal event or after disposal, and a terminal event, once
    /// delivered, ends the subscription (its unsubscription is logged then
    /// and its later events cancelled). It is counted and named as that sink
    /// in resource counts and leak reports (`GrammarSinkToken`). Once the
    /// scheduler is gone, a subscription takes the sink's path.
    @inlinable
    public override func asObservable() -> Observable<Element> {
        Observable.subscribing(with: { [self] observer in subscribeKeepingGrammar(observer) })
    }

    /// One subscription of ``asObservable()``: ``subscribe(_:)``'s, with
    /// the grammar kept by the subscription (see
    /// ``ColdSubscription/keepsGrammar``).
    @inlinable
    func subscribeKeepingGrammar(_ observer: AnyObserver<Element>) -> any Disposable {
        // Its scheduler released: the sink over what `subscribe` returns then.
        guard let scheduler = owner else { return subscribeThroughGrammarSink(observer) }
        let index = subscribed(at: scheduler.clock)
        return subscribeWith(self, scheduler, index, observer, true)
    }
}

/// One subscription to a cold test observable: the observer and the events
/// it is sent, and the sequence numbers of their scheduled actions (one run
/// of consecutive numbers: they are scheduled under one turn of the
/// scheduler's lock). Each action captures only this object (a closure
/// capturing one object needs no context of its own), so scheduling an
/// event allocates nothing beyond the scheduler's entry. Disposing it (the
/// first time) logs the unsubscription, cancels the actions that have not
/// run under one lock, and lets go of the observer.
@usableFromInline
final class ColdSubscription<Element>: Cancelable, @unchecked Sendable {
    // `link`, `observable`, `lock`, `index` and `events` are set once at
    // creation; `firstSequence` and `sequenceCount` once, by the scheduling
    // function, before the subscription is returned (so before anyone can
    // dispose it).
    // `observer` is guarded by `lock`. `next` is read and written only by
    // this subscription's actions, which the scheduler runs one at a time.
    // `disposed` makes `dispose` run once.
    /// The scheduler, through its link (not `weak`: see `SchedulerLink`).
    @usableFromInline let link: SchedulerLink
    /// The observable, whose log this subscription is at `index`.
    @usableFromInline let observable: ColdObservable<Element>
    @usableFromInline let lock: Lock
    @usableFromInline let index: Int
    @usableFromInline let events: [Recorded<Event<Element>>]
    @usableFromInline @exclusivity(unchecked) var observer: AnyObserver<Element>?
    /// The sequence numbers of the scheduled actions:
    /// `firstSequence ..< firstSequence + sequenceCount` (no array to
    /// allocate, see ``TestScheduler/enqueueRun(count:after:time:action:)``).
    @usableFromInline @exclusivity(unchecked) var firstSequence: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var sequenceCount = 0
    @usableFromInline @exclusivity(unchecked) var next = 0
    let disposed = Atomic<Bool>(false)
    /// Calls ``takeObserver()`` from code specialized for the element type.
    @usableFromInline let releaseObserver: (ColdSubscription<Element>) -> Void
    /// Set for a subscription of
    /// ``ColdObservable/asObservable()``, which keeps the grammar in place of
    /// the default `asObservable()`'s sink: a terminal event lets go of the
    /// observer before it is delivered (so nothing reaches the observer
    /// after it), then disposes the subscription, as that sink disposes its
    /// source. A disposed subscription already sends nothing.
    @usableFromInline let keepsGrammar: Bool
    /// The count that sink would hold (with ``keepsGrammar`` only), from
    /// the subscription's creation until its first disposal: written again
    /// only by `dispose`, which runs once.
    @usableFromInline @exclusivity(unchecked) var grammarToken: GrammarSinkToken?

    @usableFromInline
    init(
        scheduler: TestScheduler, observable: ColdObservable<Element>, index: Int, observer: AnyObserver<Element>,
        keepsGrammar: Bool
    ) {
        self.grammarToken = keepsGrammar ? GrammarSinkToken(for: Element.self) : nil
        self.keepsGrammar = keepsGrammar
        self.releaseObserver = observable.releaseObserver
        self.link = scheduler.handle
        self.observable = observable
        self.lock = observable.lock
        self.index = index
        self.observer = observer
        self.events = observable.recordedEvents
    }

    /// Whether the recorded events' actions run in the order they are
    /// scheduled: their times never decrease, and the scheduler maps them
    /// to due instants without reordering two of them (it runs entries due
    /// at the same instant in scheduling order). With
    /// `simulateProcessingDelay` a time not after the subscription is moved
    /// to one frame after it, which would put it after a later time within
    /// that frame: then every time must be a whole number of frames.
    @inlinable
    func eventsRunInSchedulingOrder(processingDelay: Bool) -> Bool {
        var previous = TestTime(Int.min)
        // By index, reading only the times (see `createColdObservable`).
        for index in events.indices {
            let time = events[index].time
            guard time >= previous else { return false }
            if processingDelay, time.remainder != .zero { return false }
            previous = time
        }
        return true
    }

    /// Sends the next event: the n-th action of this subscription to run
    /// sends the n-th event (see ``eventsRunInSchedulingOrder(processingDelay:)``).
    @inlinable
    func emitNext() {
        let event = events[next].value
        next += 1
        emit(event)
        // The last event sent: the observer is not needed any more.
        if next == events.count { takeObserver() }
    }

    @inlinable
    func emit(_ event: Event<Element>) {
        if keepsGrammar, event.isStopEvent { return emitTerminalKeepingGrammar(event) }
        guard let observer = lock.withLock({ observer }) else { return }
        observer.on(event)
    }

    /// A terminal event where the grammar is kept here: what the sink's
    /// `terminate` does (nothing forwarded after it, the source disposed
    /// once it is delivered, unless downstream disposed it meanwhile).
    @inlinable
    func emitTerminalKeepingGrammar(_ event: Event<Element>) {
        let observer = lock.withLock { () -> AnyObserver<Element>? in
            var taken: AnyObserver<Element>?
            swap(&taken, &self.observer)
            return taken
        }
        guard let observer else { return }
        observer.on(event)
        dispose()
    }

    @usableFromInline var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @usableFromInline func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Its scheduler released, there is nothing to log or cancel.
        if let scheduler = link.scheduler {
            observable.unsubscribed(index, at: scheduler.clock)
            scheduler.cancel(sequencesFrom: firstSequence, count: sequenceCount)
        }
        // Through the closure made where the element type is known: here,
        // in generic code, an `AnyObserver<Element>?` costs metadata lookups
        // (about 700 instructions).
        releaseObserver(self)
        // Last, as the sink lets go of its count after disposing its source.
        grammarToken = nil
    }

    /// Lets go of the observer (released outside the lock: releasing it
    /// can run deinitializers).
    @inlinable
    func takeObserver() {
        let observer = lock.withLock { () -> AnyObserver<Element>? in
            defer { self.observer = nil }
            return self.observer
        }
        withExtendedLifetime(observer) {}
    }
}

extension TestScheduler {
    /// A cold observable emitting `events` relative to each subscription.
    // Inlinable: the function that schedules a subscription's events is
    // written here, so that it is specialized where the element type is
    // known (see `ColdObservable.subscribeWith`).
    @inlinable
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> ColdObservable<Element> {
        ColdObservable(
            scheduler: self, events: events, releaseObserver: { $0.takeObserver() },
            subscribeWith: { observable, scheduler, index, observer, keepsGrammar in
                let subscription = ColdSubscription(
                    scheduler: scheduler, observable: observable, index: index, observer: observer,
                    keepsGrammar: keepsGrammar)
                let start = scheduler.now
                let events = subscription.events
                let first: UInt64
                if subscription.eventsRunInSchedulingOrder(processingDelay: scheduler.simulateProcessingDelay) {
                    // By index, reading only the times: a `for … in` copies each
                    // recorded event (a retain and a release of its element).
                    first = scheduler.enqueueRun(
                        count: events.count, after: start, time: { events[$0].time },
                        action: { _ in { subscription.emitNext() } })
                } else {
                    // A recording given out of time order: one closure per event.
                    first = scheduler.enqueueRun(
                        count: events.count, after: start, time: { events[$0].time },
                        action: { index in
                            let event = events[index].value
                            return { subscription.emit(event) }
                        })
                }
                subscription.firstSequence = first
                subscription.sequenceCount = events.count
                return subscription
            }, anyObserverType: AnyObserver<Element>.self)
    }
}

extension TestScheduler {
    /// Schedules `count` actions, the `index`-th made by `action(index)` and
    /// due at frame time `time(index)` after `start` (the clock when a cold
    /// test observable was subscribed to), each exactly as
    /// `schedule(at: start + time(index))` does, and returns the sequence
    /// number of the first: the others follow it one by one, since they are
    /// scheduled under one turn of the lock. A cold subscription's
    /// scheduling, without a lock, a count and an existential disposable
    /// per event, nor an array of sequence numbers (see ``cancel(sequencesFrom:count:)``).
    /// `time` and `action` run under the lock: they must not call back into
    /// the scheduler.
    @usableFromInline
    func enqueueRun(
        count: Int, after start: SchedulerInstant, time: (Int) -> TestTime, action: (Int) -> () -> Void
    ) -> UInt64 {
        guard count > 0 else { return 0 }
        // What `schedule(at:)` of `start + time` makes of it: the delay from
        // `start`, saturating as the instants do, never negative. (The
        // time's offset from the origin is its instant's `offset`, and the
        // sign is read from the attoseconds: `.origin`, `.zero` and
        // `Duration`'s `<` are each a call, five times a subscription.)
        func delay(_ index: Int) -> Duration {
            let due = start + instant(for: time(index)).offset
            let delay = due - start
            return delay.totalAttoseconds < 0 ? Duration(totalAttoseconds: 0) : delay
        }
        let processingDelay = simulateProcessingDelay
        lock.lock()
        var first: UInt64 = 0
        for index in 0..<count {
            let key = state.enqueue(
                due: (SchedulerInstant(offset: state.current) + delay(index)).offset, frame: frame,
                simulateProcessingDelay: processingDelay, action(index))
            if index == 0 { first = key }
        }
        let outsideADrive = state.isAdvancing ? nil : state.current
        lock.unlock()
        // Each item counted as `enqueue(after:)` counts it.
        if let now = outsideADrive {
            for index in 0..<count {
                pendingWork.scheduledOutsideADrive(due: (SchedulerInstant(offset: now) + delay(index)).offset)
            }
        }
        counter.increment(by: count)
        return first
    }

    /// Cancels the entries `first ..< first + count` that have not run, under
    /// one lock (the actions of one ``enqueueRun(count:after:time:action:)``).
    @usableFromInline
    func cancel(sequencesFrom first: UInt64, count: Int) {
        guard count > 0 else { return }
        var released: WorkQueue.Released?
        var cancelled = 0
        lock.lock()
        for sequence in first..<first &+ UInt64(count) where state.cancel(sequence) { cancelled += 1 }
        if cancelled > 0 { released = state.takeAllIfAllCancelled() }
        lock.unlock()
        if cancelled > 0 { counter.decrement(by: cancelled) }
        // Released outside the lock: releasing one can run deinitializers
        // that call back into this scheduler.
        withExtendedLifetime(released) {}
    }
}

// @unchecked: the recording is immutable, the scheduler's link is set once
// (and thread-safe), and the subscription log is guarded by `lock`.
// Sendable only when the elements are.
extension ColdObservable: @unchecked Sendable where Element: Sendable {}
