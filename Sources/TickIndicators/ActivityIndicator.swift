import Tick

/// Tracks the activity of observable sequences and the message of the most
/// important one (a rebuild of Reactant's `ActivityIndicator`).
///
/// Subscribe to the indicator (it is an observable of ``State``) to show a
/// spinner and a message; wrap work with one of the `trackActivity` forms.
///
/// ## Rules (the original's)
/// - Each subscription to a tracked sequence is one *entry*, in registration
///   order. The state is `loading = !entries.isEmpty` and `message` = the
///   **first non-nil message** among the entries (so when not loading it is
///   `nil`). Only changes are emitted; a new subscriber gets the current state
///   at once (initially `(loading: false, message: nil)`).
/// - Per subscription: the source is subscribed **first**, then the entry
///   registers with its initial message. So in
///   `a.trackActivity(in: i, message: "1").flatMap { … }.trackActivity(in: i, message: "2")`
///   entry 1 registers before entry 2, and the priority of a chain is the
///   order its pieces appear in, whenever they start working.
/// - Each element sets the entry's message to `messageProvider(element)`,
///   after the element was forwarded downstream. Elements received while the
///   source was still being subscribed are applied right after the entry
///   registered (the original replayed the latest one).
/// - On completion or error the event is forwarded downstream first and then
///   the entry is removed; on disposal the source subscription is disposed
///   and then the entry is removed.
/// - Each tracked subscription retains the indicator until it ends.
/// - Async work is tracked with ``track(message:isolation:_:)``: one entry
///   from the start of the call to its end (or the calling task's
///   cancellation).
///
/// Registering, changing a message and unregistering cost O(log n) in the
/// number of active entries, so 100,000 concurrent tracked sequences are
/// cheap (the original scanned every entry on each change: quadratic).
///
/// To show the spinner only for work that lasts, and never as a flash, see
/// ``ObservableType/delayedVisibility(showAfter:minimumVisible:hideAfter:scheduler:)``.
///
/// ## Differences from the original
/// - Thread-safe (the original had no locking): tracked sequences may start,
///   emit and end on any threads; states are emitted one at a time, in the
///   order they were computed, never while a lock is held.
/// - A source that terminates while it is being subscribed (before the entry
///   could register) never registers, so it does not make the indicator blink.
public final class ActivityIndicator: ObservableType, @unchecked Sendable {
    /// What the indicator shows.
    public struct State: Equatable, Sendable, CustomStringConvertible {
        /// `true` while at least one tracked subscription is active.
        public var loading: Bool
        /// The first non-nil message of the active subscriptions, in
        /// registration order.
        public var message: String?

        /// A state.
        public init(loading: Bool, message: String?) {
            self.loading = loading
            self.message = message
        }

        /// `(loading: true, message: Saving)`; a missing message reads `nil`.
        public var description: String { "(loading: \(loading), message: \(message ?? "nil"))" }
    }

    /// The indicator emits ``State``s.
    public typealias Element = State

    /// A bag for the caller's subscriptions to this indicator, for
    /// convenience: it is emptied when the indicator is deinitialized.
    public let disposeBag = DisposeBag()

    /// The message of tracked sequences that are given none.
    public let defaultMessage: String?

    /// One tracked subscription's (or call's) bookkeeping.
    // Safe to share: every field is read and written only under the
    // indicator's lock.
    private final class Tracking: @unchecked Sendable {
        /// Registration order (assigned when the entry registers).
        var order: UInt64 = 0
        var registered = false
        var finished = false
        var pendingMessage: String??
        /// The entry's message while registered.
        var message: String?
        /// Whether `messageOrder` holds this entry (at most once).
        var inHeap = false
        /// Registered with a non-nil message: a candidate for the state's message.
        var isCandidate: Bool { registered && message != nil }
    }

    private let lock = Lock()
    // Guarded by `lock`:
    /// The number of registered entries.
    private var entryCount = 0
    private var nextOrder: UInt64 = 0
    /// The entries with a message, by registration order (a min-heap with
    /// lazy deletion: entries that ended or lost their message stay until
    /// they reach the top, or until a compaction).
    private var messageOrder = TrackingHeap()
    /// How many entries of `messageOrder` are not candidates any more.
    private var staleInHeap = 0
    private var lastState = State(loading: false, message: nil)
    private let publisher = SerialPublisher(initial: State(loading: false, message: nil))

    /// An indicator whose tracked sequences use `defaultMessage` unless given
    /// another message.
    public init(defaultMessage: String? = nil) {
        self.defaultMessage = defaultMessage
    }

    /// The current state.
    public var state: State { lock.withLock { lastState } }

    /// Subscribes `observer` to the states: the current one at once, then
    /// every change.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == State {
        publisher.observable.subscribe(observer)
    }

    // MARK: Tracking

    /// Tracks every subscription to `source`: its message is
    /// `initialMessage` until the first element, then `messageProvider(element)`.
    public func trackActivity<Source: ObservableType>(
        of source: Source, initialMessage: String?, messageProvider: @escaping (Source.Element) -> String?
    ) -> Observable<Source.Element> {
        let source = source.asObservable()
        return Observable.create { observer in
            let tracking = Tracking()
            let subscription = source.subscribe { event in
                switch event {
                case .next(let element):
                    let message = messageProvider(element)
                    observer.on(event)
                    self.setMessage(message, for: tracking)
                case .error, .completed:
                    self.lock.withLock { if !tracking.registered { tracking.finished = true } }
                    observer.on(event)
                }
            }
            self.register(tracking, initialMessage: initialMessage)
            return Disposables.create {
                subscription.dispose()
                self.unregister(tracking)
            }
        }
    }

    /// Tracks every subscription to `source` with the ``defaultMessage``.
    public func trackActivity<Source: ObservableType>(of source: Source) -> Observable<Source.Element> {
        trackActivity(of: source, message: defaultMessage)
    }

    /// Tracks every subscription to `source` with a fixed `message`.
    public func trackActivity<Source: ObservableType>(of source: Source, message: String?) -> Observable<Source.Element> {
        trackActivity(of: source, initialMessage: message, messageProvider: { _ in message })
    }

    /// Tracks every subscription to `source`: its message is the
    /// ``defaultMessage`` until the first element, then `messageProvider(element)`.
    public func trackActivity<Source: ObservableType>(
        of source: Source, messageProvider: @escaping (Source.Element) -> String?
    ) -> Observable<Source.Element> {
        trackActivity(of: source, initialMessage: defaultMessage, messageProvider: messageProvider)
    }

    // MARK: Tracking async work

    /// Tracks one call of `work` with a fixed `message`: the activity starts
    /// when `work` starts and ends when it returns or throws, or when the
    /// calling task is cancelled, whichever comes first.
    ///
    /// ```swift
    /// // Illustration: `api` is the app's own client.
    /// let items = try await indicator.track(message: "Loading items") { try await api.items() }
    /// ```
    ///
    /// Cancellation ends the activity at that instant, even if `work` goes
    /// on running (this call still waits for it and returns its result). A
    /// call made from an already cancelled task never shows. `work` runs in
    /// the caller's isolation; the result and error are `work`'s.
    public func track<T>(
        message: String?, isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async rethrows -> T {
        let tracking = Tracking()
        return try await withTaskCancellationHandler {
            register(tracking, initialMessage: message)
            defer { unregister(tracking) }
            return try await work()
        } onCancel: {
            self.unregister(tracking)
        }
    }

    /// Tracks one call of `work` with the ``defaultMessage``; see
    /// ``track(message:isolation:_:)``.
    public func track<T>(
        isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async rethrows -> T {
        try await track(message: defaultMessage, isolation: isolation, work)
    }

    // MARK: Entries
    //
    // Every operation is O(log n) amortized in the number of registered
    // entries: the count answers `loading`, and a heap of the entries with a
    // message, ordered by registration, answers "the first non-nil message".

    private func register(_ tracking: Tracking, initialMessage: String?) {
        change {
            guard !tracking.finished, !tracking.registered else { return }
            tracking.registered = true
            nextOrder &+= 1
            tracking.order = nextOrder
            entryCount += 1
            setEntryMessageLocked(initialMessage, tracking, publish: false)
            publishLocked()
            if let pending = tracking.pendingMessage {
                tracking.pendingMessage = nil
                setEntryMessageLocked(pending, tracking)
            }
        }
    }

    private func setMessage(_ message: String?, for tracking: Tracking) {
        change {
            if tracking.registered {
                setEntryMessageLocked(message, tracking)
            } else if !tracking.finished {
                tracking.pendingMessage = .some(message)
            }
        }
    }

    private func unregister(_ tracking: Tracking) {
        change {
            tracking.finished = true
            guard tracking.registered else { return }
            if tracking.isCandidate { staleInHeap += 1 }
            tracking.registered = false
            tracking.message = nil
            entryCount -= 1
            compactIfNeededLocked()
            publishLocked()
        }
    }

    private func setEntryMessageLocked(_ message: String?, _ tracking: Tracking, publish: Bool = true) {
        guard tracking.message != message else { return }
        let wasCandidate = tracking.isCandidate
        tracking.message = message
        if tracking.inHeap {
            // Already in the heap (its key never changes): only the count of
            // stale entries moves.
            if wasCandidate, !tracking.isCandidate { staleInHeap += 1 }
            if !wasCandidate, tracking.isCandidate { staleInHeap -= 1 }
            compactIfNeededLocked()
        } else if tracking.isCandidate {
            tracking.inHeap = true
            messageOrder.insert(tracking)
        }
        if publish { publishLocked() }
    }

    /// The first non-nil message in registration order: drops stale entries
    /// from the top of the heap.
    private func firstMessageLocked() -> String? {
        while let top = messageOrder.min {
            if top.isCandidate { return top.message }
            messageOrder.removeMin()
            top.inHeap = false
            staleInHeap -= 1
        }
        return nil
    }

    /// Rebuilds the heap without its stale entries once they are the majority
    /// (so entries that ended below a long-lived one do not pile up).
    private func compactIfNeededLocked() {
        guard staleInHeap > 32, staleInHeap * 2 > messageOrder.count else { return }
        messageOrder.removeAll { tracking in
            if tracking.isCandidate { return false }
            tracking.inHeap = false
            return true
        }
        staleInHeap = 0
    }

    /// Runs `body` under the lock, then delivers the states it published.
    private func change(_ body: () -> Void) {
        lock.withLock(body)
        publisher.drain()
    }

    /// Queues the current state if it differs from the last one.
    private func publishLocked() {
        let state = State(loading: entryCount > 0, message: firstMessageLocked())
        guard state != lastState else { return }
        lastState = state
        publisher.enqueue(state)
    }

    /// A binary min-heap of trackings by registration order.
    private struct TrackingHeap {
        private var items: [Tracking] = []

        var count: Int { items.count }
        var min: Tracking? { items.first }

        mutating func insert(_ tracking: Tracking) {
            items.append(tracking)
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child].order < items[parent].order else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func removeMin() {
            guard !items.isEmpty else { return }
            items.swapAt(0, items.count - 1)
            items.removeLast()
            siftDown(from: 0)
        }

        /// Removes the trackings `shouldRemove` selects, in O(n).
        mutating func removeAll(where shouldRemove: (Tracking) -> Bool) {
            items.removeAll(where: shouldRemove)
            var index = items.count / 2
            while index > 0 {
                index -= 1
                siftDown(from: index)
            }
        }

        private mutating func siftDown(from start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < items.count else { return }
                var smallest = left
                let right = left + 1
                if right < items.count, items[right].order < items[left].order { smallest = right }
                guard items[smallest].order < items[parent].order else { return }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }
}

extension ObservableType {
    /// Tracks every subscription to this sequence in `activityIndicator`, with
    /// its default message.
    public func trackActivity(in activityIndicator: ActivityIndicator) -> Observable<Element> {
        activityIndicator.trackActivity(of: self)
    }

    /// Tracks every subscription to this sequence in `activityIndicator`, with
    /// a fixed `message`.
    public func trackActivity(in activityIndicator: ActivityIndicator, message: String?) -> Observable<Element> {
        activityIndicator.trackActivity(of: self, message: message)
    }

    /// Tracks every subscription to this sequence in `activityIndicator`: the
    /// default message until the first element, then `messageProvider(element)`.
    public func trackActivity(
        in activityIndicator: ActivityIndicator, messageProvider: @escaping (Element) -> String?
    ) -> Observable<Element> {
        activityIndicator.trackActivity(of: self, messageProvider: messageProvider)
    }

    /// Tracks every subscription to this sequence in `activityIndicator`:
    /// `initialMessage` until the first element, then `messageProvider(element)`.
    public func trackActivity(
        in activityIndicator: ActivityIndicator, initialMessage: String?,
        messageProvider: @escaping (Element) -> String?
    ) -> Observable<Element> {
        activityIndicator.trackActivity(of: self, initialMessage: initialMessage, messageProvider: messageProvider)
    }
}
