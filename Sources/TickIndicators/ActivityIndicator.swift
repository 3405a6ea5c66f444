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

    private struct Entry {
        let id: UInt64
        var message: String?
    }

    /// One tracked subscription's bookkeeping. Guarded by the indicator's lock.
    private final class Tracking {
        let id: UInt64
        var registered = false
        var finished = false
        var pendingMessage: String??
        init(id: UInt64) { self.id = id }
    }

    private let lock = Lock()
    // Guarded by `lock`:
    private var entries: [Entry] = []
    private var nextID: UInt64 = 0
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
            let tracking = self.lock.withLock { () -> Tracking in
                self.nextID &+= 1
                return Tracking(id: self.nextID)
            }
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

    // MARK: Entries

    private func register(_ tracking: Tracking, initialMessage: String?) {
        change {
            guard !tracking.finished, !tracking.registered else { return }
            tracking.registered = true
            entries.append(Entry(id: tracking.id, message: initialMessage))
            publishLocked()
            if let pending = tracking.pendingMessage {
                tracking.pendingMessage = nil
                setEntryMessageLocked(pending, id: tracking.id)
            }
        }
    }

    private func setMessage(_ message: String?, for tracking: Tracking) {
        change {
            if tracking.registered {
                setEntryMessageLocked(message, id: tracking.id)
            } else if !tracking.finished {
                tracking.pendingMessage = .some(message)
            }
        }
    }

    private func unregister(_ tracking: Tracking) {
        change {
            tracking.finished = true
            guard tracking.registered else { return }
            tracking.registered = false
            entries.removeAll { $0.id == tracking.id }
            publishLocked()
        }
    }

    private func setEntryMessageLocked(_ message: String?, id: UInt64) {
        guard let index = entries.firstIndex(where: { $0.id == id }), entries[index].message != message else { return }
        entries[index].message = message
        publishLocked()
    }

    /// Runs `body` under the lock, then delivers the states it published.
    private func change(_ body: () -> Void) {
        lock.withLock(body)
        publisher.drain()
    }

    /// Queues the current state if it differs from the last one.
    private func publishLocked() {
        let state = State(loading: !entries.isEmpty, message: entries.lazy.compactMap(\.message).first)
        guard state != lastState else { return }
        lastState = state
        publisher.enqueue(state)
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
