/// A subject is both an observer and an observable: what it is told, it tells
/// its subscribers.
///
/// Tick's subjects are thread-safe: `on(_:)` and `subscribe(_:)` may be called
/// from any thread, and no observer is ever called while a lock is held (so an
/// observer may feed the subject it observes). Calls to `on(_:)` must still be
/// serialized by the caller, as the Rx contract requires of any observer.
public protocol SubjectType<Element>: ObservableType, ObserverType {}

/// Tells its subscribers every event from the moment they subscribe.
///
/// After a terminal event, new subscribers receive just that terminal event.
public final class PublishSubject<Element>: SubjectType {
    @usableFromInline let core = SubjectCore<Element>(bufferCapacity: 0, replaysAfterTerminal: false)

    /// A subject with no subscribers.
    public init() {}

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// `true` once the subject received a terminal event.
    public var isStopped: Bool { core.isStopped }

    @inlinable public func on(_ event: Event<Element>) { core.on(event) }

    /// This subject as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(AnyObserver(observer))
    }
}

/// Holds a current value: a new subscriber receives it at once, then every
/// later event.
///
/// After a terminal event, new subscribers receive just that terminal event.
public final class BehaviorSubject<Element>: SubjectType {
    @usableFromInline let core: SubjectCore<Element>

    /// A subject whose current value is `value`.
    public init(value: Element) {
        core = SubjectCore(bufferCapacity: 1, initial: value, replaysAfterTerminal: false)
    }

    /// The current value. Throws the subject's error if it failed.
    public func value() throws -> Element {
        let (element, stopped) = core.latest
        if case .error(let error)? = stopped { throw error }
        // A behavior subject always holds an element: it starts with one and
        // its buffer keeps the latest.
        return element.unsafelyUnwrapped
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// `true` once the subject received a terminal event.
    public var isStopped: Bool { core.isStopped }

    @inlinable public func on(_ event: Event<Element>) { core.on(event) }

    /// This subject as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(AnyObserver(observer))
    }
}

/// Replays up to `bufferSize` of the latest elements to each new subscriber,
/// then tells it every later event.
///
/// After a terminal event, new subscribers receive the buffered elements and
/// then the terminal event.
public final class ReplaySubject<Element>: SubjectType {
    @usableFromInline let core: SubjectCore<Element>

    private init(bufferSize: Int) {
        core = SubjectCore(bufferCapacity: bufferSize, replaysAfterTerminal: true)
    }

    /// A subject replaying the latest `bufferSize` elements (a negative size is
    /// treated as 0).
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: bufferSize)
    }

    /// A subject replaying every element it ever received.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: .max)
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// `true` once the subject received a terminal event.
    public var isStopped: Bool { core.isStopped }

    @inlinable public func on(_ event: Event<Element>) { core.on(event) }

    /// This subject as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        core.subscribe(AnyObserver(observer))
    }
}

// @unchecked: every mutable field is guarded by a lock (`SubjectCore`), and no
// observer is called with it held. Sendable only when the elements are, since
// a subject hands each element to observers on other threads.
extension PublishSubject: @unchecked Sendable where Element: Sendable {}

// @unchecked: every mutable field is guarded by a lock (`SubjectCore`), and no
// observer is called with it held. Sendable only when the elements are, since
// a subject hands each element to observers on other threads.
extension BehaviorSubject: @unchecked Sendable where Element: Sendable {}

// @unchecked: every mutable field is guarded by a lock (`SubjectCore`), and no
// observer is called with it held. Sendable only when the elements are, since
// a subject hands each element to observers on other threads.
extension ReplaySubject: @unchecked Sendable where Element: Sendable {}
