extension ObservableType {
    /// Collects elements into arrays, emitting one when it holds `count`
    /// elements or when `timeSpan` has passed since it was started, whichever
    /// comes first; then a new one starts (and its `timeSpan` with it).
    ///
    /// - A buffer ended by time is emitted even if empty (as in RxSwift).
    /// - Exact deadline: an element arriving at exactly the end of a buffer's
    ///   `timeSpan` goes into the next buffer.
    /// - On completion the current buffer is emitted (even if empty), then the
    ///   completion; an error is forwarded at once and drops it.
    /// - One pending timer at most. A `count` below 1 is reported as misuse
    ///   and treated as 1; a `timeSpan` that is not positive is reported as
    ///   misuse and the result fails with ``TickError/argumentOutOfRange``.
    public func buffer(timeSpan: Duration, count: Int, scheduler: any Scheduler) -> Observable<[Element]> {
        let source = asObservable()
        guard checkedTimeSpan(timeSpan, "buffer(timeSpan:count:scheduler:)") else { return .error(TickError.argumentOutOfRange) }
        let count = checkedCount(count, "buffer(timeSpan:count:scheduler:)")
        return Observable { observer in
            let sink = BufferSink(downstream: observer, timeSpan: timeSpan, count: count, scheduler: scheduler)
            sink.start()
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    /// Splits the sequence into windows, each an observable of the elements
    /// it received: a window closes (completes) when it has `count` elements
    /// or when `timeSpan` has passed since it opened, and the next one opens
    /// at once. The first window opens at subscription.
    ///
    /// Windows are hot: subscribe to each one when it is emitted (inside the
    /// observer's `onNext`) to see all its elements. The time rules are those
    /// of ``buffer(timeSpan:count:scheduler:)``, and so are its rules for a bad
    /// `count` or `timeSpan`; an error is sent to the open window and then to
    /// the result.
    public func window(timeSpan: Duration, count: Int, scheduler: any Scheduler) -> Observable<Observable<Element>> {
        let source = asObservable()
        guard checkedTimeSpan(timeSpan, "window(timeSpan:count:scheduler:)") else { return .error(TickError.argumentOutOfRange) }
        let count = checkedCount(count, "window(timeSpan:count:scheduler:)")
        return Observable { observer in
            let sink = WindowSink(downstream: observer, timeSpan: timeSpan, count: count, scheduler: scheduler)
            sink.start()
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    /// Groups elements by `keySelector`: emits a ``GroupedObservable`` the
    /// first time a key is seen, and sends each element to its group.
    ///
    /// Groups are hot: subscribe to a group when it is emitted to see all its
    /// elements. The source's completion or error is sent to every group, then
    /// to the result; an error thrown by `keySelector` likewise (and the
    /// source subscription is disposed at once). As in RxSwift, disposing the
    /// result's subscription keeps the source subscribed while any group is
    /// still subscribed: the source is disposed when the result and every
    /// group subscription have been disposed.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func groupBy<Key: Hashable>(
        keySelector: @escaping (Element) throws -> Key, isolation: (any Actor)? = #isolation
    ) -> Observable<GroupedObservable<Key, Element>> {
        let source = asObservable()
        let keySelector =
            MainActorClosureCheck.forIsolation(isolation, operator: "groupBy")?.wrap(keySelector) ?? keySelector
        return Observable { observer in
            let sink = GroupBySink(downstream: observer, keySelector: keySelector)
            sink.sourceSubscription.setDisposable(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

/// groupBy's sink. The source subscription is shared by the result and the
/// group subscriptions: it is disposed when the last of them is.
final class GroupBySink<Key: Hashable, Element>: Sink<GroupedObservable<Key, Element>>, @unchecked Sendable {
    private let keySelector: (Element) throws -> Key
    let sourceSubscription = SingleAssignmentDisposable()
    private let lock = Lock()
    // Guarded by `lock`: the result (1 until disposed) plus each live group
    // subscription.
    private var references = 1
    // Touched only by the source's events, which arrive one at a time:
    private var groups: [Key: PublishSubject<Element>] = [:]
    private var order: [PublishSubject<Element>] = []

    init(downstream: AnyObserver<GroupedObservable<Key, Element>>, keySelector: @escaping (Element) throws -> Key) {
        self.keySelector = keySelector
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let key: Key
            do { key = try keySelector(element) } catch {
                finish(.error(error))
                return
            }
            if let group = groups[key] {
                group.onNext(element)
                return
            }
            let group = PublishSubject<Element>()
            groups[key] = group
            order.append(group)
            let shared = Observable<Element> { [self] observer in
                guard retain() else { return group.subscribe(observer) }
                let subscription = group.subscribe(observer)
                return Disposables.create(subscription, Disposables.create { [self] in release() })
            }
            forwardNext(GroupedObservable(key: key, source: shared))
            group.onNext(element)
        case .error(let error): finish(.error(error))
        case .completed: finish(.completed)
        }
    }

    private func finish(_ event: Event<Element>) {
        let all = order
        groups = [:]
        order = []
        for group in all { group.on(event) }
        switch event {
        case .error(let error): forwardError(error)
        default: forwardCompleted()
        }
        sourceSubscription.dispose()
    }

    /// Counts a new group subscription; `false` if the source is already gone.
    private func retain() -> Bool {
        lock.withLock {
            guard references > 0 else { return false }
            references += 1
            return true
        }
    }

    private func release() {
        let last: Bool = lock.withLock {
            references -= 1
            return references == 0
        }
        if last { sourceSubscription.dispose() }
    }

    override func disposeResources() { release() }
}

/// The elements of one group of ``ObservableType/groupBy(keySelector:)``,
/// with their key.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key shared by every element of the group.
    public let key: Key
    private let source: Observable<Element>

    /// A group with `key` whose elements come from `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group's elements as a plain observable.
    public func asObservable() -> Observable<Element> { source }
}

// Plain strings and out-of-line reports: one copy of each message, not one
// per caller (Docs/Performance.md, "Build time").
func checkedTimeSpan(_ timeSpan: Duration, _ what: String) -> Bool {
    if timeSpan <= .zero {
        reportNonPositiveTimeSpan(timeSpan, what)
        return false
    }
    return true
}

@inline(never)
func reportNonPositiveTimeSpan(_ timeSpan: Duration, _ what: String) {
    Misuse.report("\(what) was given a time span of \(timeSpan); it must be positive. The sequence fails with TickError.argumentOutOfRange.")
}

func checkedCount(_ count: Int, _ what: String) -> Int {
    if count < 1 {
        reportCountBelowOne(count, what)
        return 1
    }
    return count
}

@inline(never)
func reportCountBelowOne(_ count: Int, _ what: String) {
    Misuse.report("\(what) was given a count of \(count); it must be at least 1. Using 1.")
}

/// The shared clock of buffer and window: the current chunk's deadline and
/// the single timer that ends it.
class ChunkSink<Output, Element>: SerializingSink<Output>, @unchecked Sendable {
    final let timeSpan: Duration
    final let count: Int
    final let scheduler: any Scheduler
    private final let timer = SerialDisposable()
    // Guarded by `lock`:
    final var chunkEnd = SchedulerInstant.origin
    final var chunkID: UInt64 = 0
    final var chunkCount = 0

    init(downstream: AnyObserver<Output>, timeSpan: Duration, count: Int, scheduler: any Scheduler) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    /// Opens the first chunk.
    final func start() {
        let id: UInt64 = lock.withLock {
            openChunkLocked(at: scheduler.now)
            return chunkID
        }
        drain()
        arm(id)
    }

    /// Starts a new chunk at `time`. Call with the lock held; arm the timer
    /// afterwards with the returned id.
    final func openChunkLocked(at time: SchedulerInstant) {
        chunkID &+= 1
        chunkEnd = time + timeSpan
        chunkCount = 0
        openLocked()
    }

    final func arm(_ id: UInt64?) {
        guard let id, !isDisposed else { return }
        let delay = lock.withLock { chunkEnd - scheduler.now }
        timer.disposable = scheduler.schedule(after: delay.clampedToZero) { [self] in fire(id) }
    }

    func on(_ event: Event<Element>) {
        let now = scheduler.now
        var rearm: UInt64?
        locked {
            switch event {
            case .next(let element):
                if now >= chunkEnd {
                    closeLocked()
                    openChunkLocked(at: chunkEnd)
                    rearm = chunkID
                }
                addLocked(element)
                chunkCount += 1
                if chunkCount >= count {
                    closeLocked()
                    openChunkLocked(at: now)
                    rearm = chunkID
                }
            case .error(let error): failLocked(error)
            case .completed:
                closeLocked()
                completeLocked()
            }
        }
        arm(rearm)
    }

    private func fire(_ id: UInt64) {
        var rearm: UInt64?
        locked {
            guard id == chunkID else { return }
            closeLocked()
            openChunkLocked(at: chunkEnd)
            rearm = chunkID
        }
        arm(rearm)
    }

    override func disposeResources() { timer.dispose() }

    // Overridden by buffer and window; called with the lock held.
    func openLocked() {}
    func addLocked(_ element: Element) {}
    func closeLocked() {}
    func failLocked(_ error: any Error) { enqueueLocked(.error(error)) }
    func completeLocked() { enqueueLocked(.completed) }
}

final class BufferSink<Element>: ChunkSink<[Element], Element>, @unchecked Sendable {
    private var buffer: [Element] = []

    override func addLocked(_ element: Element) { buffer.append(element) }

    override func closeLocked() {
        enqueueLocked(.next(buffer))
        buffer = []
    }
}

final class WindowSink<Element>: ChunkSink<Observable<Element>, Element>, @unchecked Sendable {
    private var current: PublishSubject<Element>?

    override func openLocked() {
        let subject = PublishSubject<Element>()
        current = subject
        enqueueLocked(.next(subject.asObservable()))
    }

    override func addLocked(_ element: Element) {
        if let current { enqueueLocked(perform: { current.onNext(element) }) }
    }

    override func closeLocked() {
        if let current { enqueueLocked(perform: { current.onCompleted() }) }
        current = nil
    }

    override func failLocked(_ error: any Error) {
        if let current { enqueueLocked(perform: { current.onError(error) }) }
        current = nil
        enqueueLocked(.error(error))
    }
}

// Sendable like the `Observable` it wraps, when its key is.
extension GroupedObservable: Sendable where Key: Sendable {}
