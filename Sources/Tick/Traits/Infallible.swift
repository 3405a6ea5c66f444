/// A sequence that never fails: elements, then possibly completion.
///
/// RxSwift's `InfallibleType`. ``Infallible``, the relays and the shared
/// sequences (``Driver``, ``Signal``) conform: each of them can stand where an
/// infallible source is required (`Infallible.flatMap`, `take(until:)`, …).
public protocol InfallibleType<Element>: ObservableType {}

/// An observable sequence that cannot fail: it sends elements and possibly
/// completes, never an error. RxSwift's `Infallible`.
///
/// Make one from a sequence that can fail with ``ObservableType/asInfallible(onErrorJustReturn:)``,
/// ``ObservableType/asInfallible(onErrorFallbackTo:)`` or
/// ``ObservableType/asInfallible(onErrorRecover:)``, from a relay or a shared
/// sequence with `asInfallible()`, or directly with ``create(subscribe:)``,
/// ``just(_:)``, ``of(_:scheduler:)`` and the like. Its operators keep it
/// infallible; their closures cannot throw.
///
/// Like the other traits it is an ``ObservableType`` in Tick, so it can be
/// passed to `TestScheduler.start`, bound with `bind(to:)` or returned from
/// `flatMap`; its own operators are preferred over the observable ones.
///
/// One way out of the promise remains, as for ``Driver``: a closure written on
/// the main actor and called off the main thread ends the sequence with
/// ``TickError/isolationViolation(operator:)`` (Docs/Concurrency.md).
public struct Infallible<Element>: InfallibleType {
    let source: Observable<Element>

    /// Wraps `source`, which must not fail.
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// Subscribes `observer` (prefer `subscribe(onNext:onCompleted:onDisposed:)`
    /// or `bind(to:)`).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The infallible sequence as an observable.
    public func asObservable() -> Observable<Element> { source }

    /// This sequence itself.
    public func asInfallible() -> Infallible<Element> { self }
}

// Sendable like the `Observable` it wraps.
extension Infallible: Sendable {}

/// What an ``Infallible`` tells its subscriber: an element or completion.
public enum InfallibleEvent<Element> {
    /// The next element.
    case next(Element)
    /// The sequence completed.
    case completed

    /// The same event as an observable ``Event``.
    public var event: Event<Element> {
        switch self {
        case .next(let element): .next(element)
        case .completed: .completed
        }
    }
}

extension InfallibleEvent: Sendable where Element: Sendable {}
extension InfallibleEvent: Equatable where Element: Equatable {}

// MARK: Creating

extension Infallible {
    /// The callback a ``create(subscribe:isolation:)`` closure sends its
    /// events to.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// An infallible whose every subscription runs `subscribe`, which sends
    /// elements and possibly completion to the observer it is given and
    /// returns a disposable that cancels the work. Events after completion,
    /// or after the subscription is disposed, are dropped.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func create(
        subscribe: @escaping (@escaping InfallibleObserver) -> any Disposable, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: Observable.create({ observer in
            subscribe { observer.on($0.event) }
        }, isolation: isolation))
    }

    /// Emits `element`, then completes, at subscription.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(raw: .just(element))
    }

    /// Emits `element`, then completes, on `scheduler` (see
    /// ``Observable/just(_:scheduler:)``).
    public static func just(_ element: Element, scheduler: any Scheduler) -> Infallible<Element> {
        Infallible(raw: .just(element, scheduler: scheduler))
    }

    /// Never emits and never completes.
    public static func never() -> Infallible<Element> {
        Infallible(raw: .never())
    }

    /// Completes at subscription.
    public static func empty() -> Infallible<Element> {
        Infallible(raw: .empty())
    }

    /// Subscribes to the infallible `factory` returns, at each subscription.
    ///
    /// Unlike RxSwift's, `factory` cannot throw: a thrown error would be a
    /// failure of a sequence that promises none.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func deferred(
        _ factory: @escaping () -> Infallible<Element>, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: Observable.deferred({ factory().source }, isolation: isolation))
    }

    /// Emits `elements` in order on `scheduler`, then completes (see
    /// ``Observable/from(_:scheduler:)``).
    public static func of(
        _ elements: Element..., scheduler: any Scheduler = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        Infallible(raw: .from(elements, scheduler: scheduler))
    }

    /// Emits the elements of `array` in order on `scheduler`, then completes.
    public static func from(
        _ array: [Element], scheduler: any Scheduler = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        Infallible(raw: .from(array, scheduler: scheduler))
    }

    /// Emits the elements of `sequence` in order on `scheduler`, then completes.
    public static func from<S: Sequence>(
        _ sequence: S, scheduler: any Scheduler = CurrentThreadScheduler.instance
    ) -> Infallible<Element> where S.Element == Element {
        Infallible(raw: .from(sequence, scheduler: scheduler))
    }
}

// MARK: Converting

extension ObservableType {
    /// This sequence as an ``Infallible``: an error is replaced by `element`
    /// followed by completion.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(raw: asObservable().catchAndReturn(element))
    }

    /// This sequence as an ``Infallible`` that continues with `infallible`
    /// on error.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(raw: asObservable().catch({ _ in infallible.source }, isolation: nil))
    }

    /// This sequence as an ``Infallible`` that continues, on error, with the
    /// infallible `onErrorRecover` returns for the error.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func asInfallible(
        onErrorRecover: @escaping (any Error) -> Infallible<Element>, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: asObservable().catch({ onErrorRecover($0).source }, isolation: isolation))
    }
}

extension InfallibleType {
    /// This sequence as an ``Infallible`` (a relay or a shared sequence
    /// cannot fail).
    public func asInfallible() -> Infallible<Element> {
        Infallible(raw: asObservable())
    }
}

extension PublishRelay: InfallibleType {}
extension BehaviorRelay: InfallibleType {}
extension ReplayRelay: InfallibleType {}
extension SharedSequence: InfallibleType {}

// MARK: Subscribing

extension Infallible {
    /// Subscribes with closures for the elements and the completion (an
    /// infallible cannot fail, so there is no `onError`).
    ///
    /// - Parameter onDisposed: called once when the subscription ends, for
    ///   any reason.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that also receive `object`, held weakly: once
    /// it is gone, the closures are no longer called.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with one closure that receives every event.
    public func subscribe(
        _ on: @escaping (InfallibleEvent<Element>) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onNext: { on(.next($0)) }, onCompleted: { on(.completed) })
    }
}
