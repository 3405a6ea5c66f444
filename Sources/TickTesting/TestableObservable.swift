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

    /// This observable as an `Observable`, as every source's default
    /// `asObservable()`: each subscription goes through a sink that keeps
    /// the grammar (nothing after a terminal event or after disposal, the
    /// subscription ended once a terminal event is delivered), since the
    /// recording is replayed verbatim. ``ColdObservable`` keeps the grammar
    /// in its subscription instead, with the same results.
    // Inlinable, so that the sink is specialized where the element type is
    // known (as the default `asObservable()` is).
    @inlinable
    public func asObservable() -> Observable<Element> {
        Observable.subscribing(with: { [self] observer in subscribeThroughGrammarSink(observer) })
    }

    /// Subscribes `observer` (each subclass emits its recorded events its
    /// way; this class is never instantiated on its own, its initializer
    /// being internal).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        Disposables.create()
    }
}
