/// Something that receives the events of an observable sequence.
///
/// The Rx contract: an observer receives its events one at a time (never
/// concurrently), and nothing after a terminal event. Observers are therefore
/// not required to be `Sendable` or thread-safe themselves.
public protocol ObserverType<Element> {
    /// The type of the elements this observer receives.
    associatedtype Element
    /// Receives one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Sends `.next(element)`.
    @inlinable public func onNext(_ element: Element) { on(.next(element)) }
    /// Sends `.completed`.
    @inlinable public func onCompleted() { on(.completed) }
    /// Sends `.error(error)`.
    @inlinable public func onError(_ error: any Error) { on(.error(error)) }
    /// This observer, type-erased.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }
}

/// A type-erased observer: a function that receives events.
public struct AnyObserver<Element>: ObserverType {
    @usableFromInline let handler: (Event<Element>) -> Void

    /// An observer that calls `eventHandler` for every event.
    @inlinable
    public init(eventHandler: @escaping (Event<Element>) -> Void) {
        self.handler = eventHandler
    }

    /// Wraps another observer.
    @inlinable
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        // A metatype comparison, not `as?`: where this runs unspecialized
        // (an observer reaching a class's `subscribe` through its vtable),
        // `as?` is a call into the runtime's dynamic cast.
        if Observer.self == AnyObserver<Element>.self {
            self = unsafeBitCast(observer, to: AnyObserver<Element>.self)
        } else {
            self.handler = observer.on
        }
    }

    @inlinable
    public func on(_ event: Event<Element>) { handler(event) }
}

// @unchecked: an `AnyObserver` is an immutable function. The observers Tick
// hands out (to `create`, subjects, sinks) are thread-safe and enforce the
// grammar; the Rx rule still applies: calls must not overlap. Sendable only
// when the elements are. (Docs/Concurrency.md)
extension AnyObserver: @unchecked Sendable where Element: Sendable {}
