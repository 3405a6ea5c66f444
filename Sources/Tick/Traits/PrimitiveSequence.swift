/// An observable sequence with a stricter grammar, fixed by `Trait`:
/// ``Single`` (exactly one element or an error), ``Maybe`` (one element,
/// nothing, or an error) and ``Completable`` (no elements: completion or an
/// error).
///
/// A trait is a thin wrapper around an ``Observable`` whose events follow the
/// trait's grammar; its operators keep that grammar, so a `Single` mapped is
/// still a `Single`. Unlike RxSwift (where a trait is only convertible to an
/// observable), a trait *is* an ``ObservableType`` in Tick: it can be returned
/// from `flatMap`, passed to `TestScheduler.start`, or bound like any sequence.
/// Operators of the trait itself are preferred over the generic observable
/// ones; call ``asObservable()`` to get the observable operators.
public struct PrimitiveSequence<Trait, Element>: ObservableType {
    @usableFromInline let source: Observable<Element>

    /// Wraps `source`, which must already follow the trait's grammar.
    @usableFromInline
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// Subscribes `observer` to the underlying sequence: a ``Single``'s element
    /// arrives as `next` followed at once by `completed`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The underlying observable sequence.
    public func asObservable() -> Observable<Element> { source }

    /// This sequence itself (RxSwift's `primitiveSequence` accessor).
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

/// The trait of ``Single``: exactly one element, or an error.
public enum SingleTrait {}
/// The trait of ``Maybe``: one element, no element, or an error.
public enum MaybeTrait {}
/// The trait of ``Completable``: completion or an error, never an element.
public enum CompletableTrait {}

/// A sequence of exactly one element or an error.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>
/// A sequence of at most one element, or an error.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>
/// A sequence with no elements that completes or fails.
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

// MARK: Converting observables

extension ObservableType {
    /// This sequence as a ``Single``: its only element, sent when it completes.
    ///
    /// Fails with ``TickError/noElements`` if it completes without an element,
    /// and with ``TickError/moreThanOneElement`` as soon as a second element
    /// arrives (the source subscription is disposed then), as in RxSwift.
    public func asSingle() -> Single<Element> {
        Single(raw: atMostOne(emptyError: TickError.noElements))
    }

    /// This sequence as a ``Maybe``: its only element, sent when it completes,
    /// or just the completion if there was none.
    ///
    /// Fails with ``TickError/moreThanOneElement`` as soon as a second element
    /// arrives (the source subscription is disposed then).
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: atMostOne(emptyError: nil))
    }

    /// Holds the only element until completion; fails on a second one; on an
    /// empty completion fails with `emptyError`, or completes if it is nil.
    func atMostOne(emptyError: (any Error)?) -> Observable<Element> {
        lift { sink in
            var element: Element?
            var seen = false
            return { event in
                switch event {
                case .next(let value):
                    if seen {
                        sink.forwardError(TickError.moreThanOneElement)
                    } else {
                        seen = true
                        element = value
                    }
                case .error(let error):
                    sink.forwardError(error)
                case .completed:
                    if seen, let value = element {
                        element = nil
                        sink.forwardNext(value)
                        sink.forwardCompleted()
                    } else if let emptyError {
                        sink.forwardError(emptyError)
                    } else {
                        sink.forwardCompleted()
                    }
                }
            }
        }
    }
}

extension ObservableType where Element == Never {
    /// This sequence as a ``Completable``.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}

// MARK: Operators every trait has

extension PrimitiveSequence {
    /// Delays the element and the completion by `dueTime` (errors are not
    /// delayed), as ``ObservableType/delay(_:scheduler:)``.
    public func delay(_ dueTime: Duration, scheduler: any Scheduler) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source `dueTime` after subscription, as
    /// ``ObservableType/delaySubscription(_:scheduler:)``.
    public func delaySubscription(_ dueTime: Duration, scheduler: any Scheduler) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Fails with ``TickError/timeout`` if the sequence does not terminate
    /// within `dueTime` of subscription (exact-deadline rule of
    /// ``ObservableType/timeout(_:scheduler:)``).
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` if the sequence does not terminate within `dueTime`
    /// of subscription.
    public func timeout(
        _ dueTime: Duration, other: PrimitiveSequence, scheduler: any Scheduler
    ) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }

    /// Delivers the events on `scheduler`, as ``ObservableType/observe(on:)``.
    public func observe(on scheduler: any Scheduler) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Subscribes to the source on `scheduler`, as ``ObservableType/subscribe(on:)``.
    public func subscribe(on scheduler: any Scheduler) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// Re-subscribes after an error, up to `maxAttempts` subscriptions in all
    /// (``ObservableType/retry(_:)``).
    public func retry(_ maxAttempts: Int) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.retry(maxAttempts))
    }

    /// Re-subscribes when the sequence returned by `notificationHandler`
    /// emits (``ObservableType/retry(when:)``).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func retry<Trigger: ObservableType>(
        when notificationHandler: @escaping (Observable<any Error>) -> Trigger, isolation: (any Actor)? = #isolation
    ) -> PrimitiveSequence {
        PrimitiveSequence(raw: source.retry(when: notificationHandler, isolation: isolation))
    }

    /// Subscribes to the sequence `factory` returns, at each subscription; an
    /// error it throws fails the subscription.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func deferred(
        _ factory: @escaping () throws -> PrimitiveSequence, isolation: (any Actor)? = #isolation
    ) -> PrimitiveSequence {
        PrimitiveSequence(raw: Observable.deferred({ try factory().source }, isolation: isolation))
    }

    /// Fails with `error` at subscription.
    public static func error(_ error: any Error) -> PrimitiveSequence {
        PrimitiveSequence(raw: .error(error))
    }

    /// Never emits and never terminates.
    public static func never() -> PrimitiveSequence {
        PrimitiveSequence(raw: .never())
    }

    /// Calls `resourceFactory` at subscription, builds the sequence with
    /// `primitiveSequenceFactory` and disposes the resource when the
    /// subscription ends.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence, isolation: (any Actor)? = #isolation
    ) -> PrimitiveSequence {
        PrimitiveSequence(raw: Observable.using(
            resourceFactory, observableFactory: { try primitiveSequenceFactory($0).source }, isolation: isolation))
    }
}

extension PrimitiveSequence where Element: FixedWidthInteger {
    /// Emits `0` after `dueTime` on `scheduler`, then completes (a
    /// ``Single`` succeeds, a ``Maybe`` succeeds), as RxSwift's
    /// `Single.timer`/`Maybe.timer` (see ``Observable/timer(_:period:scheduler:)``).
    public static func timer(_ dueTime: Duration, scheduler: any Scheduler) -> PrimitiveSequence {
        PrimitiveSequence(raw: Observable.timer(dueTime, scheduler: scheduler))
    }
}

// Sendable like the `Observable` it wraps.
extension PrimitiveSequence: Sendable {}
