import Tick

/// The class of every test observable, as RxTest's `TestableObservable`:
/// ``HotObservable`` and ``ColdObservable`` are its subclasses, so RxTest
/// code that names the type ports unchanged:
///
/// ```swift
/// let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(210, 1)])
/// let inner: TestableObservable<TestableObservable<Int>> = scheduler.createHotObservable([
///     .next(220, scheduler.createColdObservable([.next(10, 2)])),
/// ])
/// ```
///
/// Only ``TestScheduler/createHotObservable(_:)`` and
/// ``TestScheduler/createColdObservable(_:)`` make one.
public class TestableObservable<Element>: TestableObservableType {
    /// The events it emits, as recorded (absolute times for a hot
    /// observable, times relative to each subscription for a cold one).
    public let recordedEvents: [Recorded<Event<Element>>]

    @usableFromInline
    init(recordedEvents: [Recorded<Event<Element>>]) {
        self.recordedEvents = recordedEvents
    }

    /// Every subscription made to it, with subscribe and unsubscribe times
    /// (each subclass keeps its log).
    public var subscriptions: [Subscription] { [] }

    /// Subscribes `observer` (each subclass emits its recorded events its
    /// way; this class is never instantiated on its own, its initializer
    /// being internal).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        Disposables.create()
    }
}
