/// A type that converts to a ``ControlEvent`` (RxCocoa's `ControlEventType`).
public protocol ControlEventType<Element>: ObservableType {
    /// This value as a control event.
    func asControlEvent() -> ControlEvent<Element>
}

/// The events of a UI control, as RxCocoa's `ControlEvent`, without UIKit:
/// a trait for sources (a button's taps, a field's edits) that send no
/// initial value, never fail and deliver on the main thread.
///
/// Tick has no UIKit bindings; a UI layer (or a test) makes a control event
/// from its own event source with ``init(events:)``. As in RxCocoa, every
/// subscription is made on the main thread: from the main thread at once,
/// from another thread on the main queue (``MainScheduler/immediateWhenOnMain``,
/// RxCocoa's `ConcurrentMainScheduler`). Making sure the source never fails
/// and delivers on the main thread is the source's job; `asDriver()` and
/// `asSignal()` end the sequence quietly if it fails anyway.
public struct ControlEvent<PropertyType>: ControlEventType, InfallibleType {
    /// The type of the events.
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// Wraps `events`, which must never fail and must deliver on the main
    /// thread; each subscription to it is made on the main thread.
    public init<Events: ObservableType>(events: Events) where Events.Element == Element {
        self.events = events.subscribe(on: MainScheduler.immediateWhenOnMain)
    }

    /// Subscribes `observer` (on the main thread, see ``init(events:)``).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The control event as an observable.
    public func asObservable() -> Observable<Element> { events }

    /// This control event itself.
    public func asControlEvent() -> ControlEvent<Element> { self }

    /// The control event as an ``Infallible``; if the source fails after
    /// all, it completes.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }

    /// The control event as a ``Driver`` (delivered on ``SharingScheduler``);
    /// if the source fails after all, the driver completes.
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorDriveWith: .empty())
    }

    /// The control event as a ``Signal`` (delivered on ``SharingScheduler``);
    /// if the source fails after all, the signal completes.
    public func asSignal() -> Signal<Element> {
        asSignal(onErrorSignalWith: .empty())
    }
}

// Sendable like the `Observable` it wraps.
extension ControlEvent: Sendable {}
