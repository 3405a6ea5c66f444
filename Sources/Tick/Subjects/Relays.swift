/// A relay is a subject that cannot terminate: it only passes elements on,
/// with ``PublishRelay/accept(_:)``. A relay is not an observer, so nothing
/// can send it an error or a completion; `bind(to:)`
/// forwards elements only.
///
/// Relays are thread-safe like the subjects they wrap.

/// Tells its subscribers every element accepted from the moment they subscribe.
public final class PublishRelay<Element>: ObservableType {
    // Safe to share: the only state is a thread-safe subject.
    private let subject = PublishSubject<Element>()

    /// A relay with no subscribers.
    public init() {}

    /// Sends `element` to every subscriber.
    public func accept(_ element: Element) { subject.on(.next(element)) }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { subject.hasObservers }

    /// This relay as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }
}

/// Holds a current value: a new subscriber receives it at once, then every
/// element accepted later.
public final class BehaviorRelay<Element>: ObservableType {
    // Safe to share: the only state is a thread-safe subject.
    private let subject: BehaviorSubject<Element>

    /// A relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element {
        // The subject never fails (a relay sends no terminal event) and always
        // holds an element, so its latest element is the value.
        subject.core.latest.element.unsafelyUnwrapped
    }

    /// Makes `element` the current value and sends it to every subscriber.
    public func accept(_ element: Element) { subject.on(.next(element)) }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { subject.hasObservers }

    /// This relay as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }
}

/// Replays up to `bufferSize` of the latest elements to each new subscriber,
/// then tells it every element accepted later.
public final class ReplayRelay<Element>: ObservableType {
    // Safe to share: the only state is a thread-safe subject.
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) { self.subject = subject }

    /// A relay replaying the latest `bufferSize` elements (a negative size is
    /// treated as 0).
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: .create(bufferSize: bufferSize))
    }

    /// A relay replaying every element it ever accepted.
    public static func createUnbounded() -> ReplayRelay<Element> {
        ReplayRelay(subject: .createUnbounded())
    }

    /// Sends `element` to every subscriber and keeps it for later ones.
    public func accept(_ element: Element) { subject.on(.next(element)) }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { subject.hasObservers }

    /// This relay as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }
}

// @unchecked: the only state is a thread-safe subject (see the subjects).
// Sendable only when the elements are, like the subject it wraps.
extension PublishRelay: @unchecked Sendable where Element: Sendable {}

// @unchecked: the only state is a thread-safe subject (see the subjects).
// Sendable only when the elements are, like the subject it wraps.
extension BehaviorRelay: @unchecked Sendable where Element: Sendable {}

// @unchecked: the only state is a thread-safe subject (see the subjects).
// Sendable only when the elements are, like the subject it wraps.
extension ReplayRelay: @unchecked Sendable where Element: Sendable {}
