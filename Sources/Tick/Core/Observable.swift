/// A type that can be subscribed to: an observable sequence of `Element`.
///
/// Every operator is defined on this protocol, so subjects and other
/// observable-like types get them all.
public protocol ObservableType<Element> {
    /// The type of the sequence's elements.
    associatedtype Element

    /// Subscribes `observer`; the returned disposable ends the subscription.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element

    /// This sequence as an ``Observable``.
    func asObservable() -> Observable<Element>
}

extension ObservableType {
    /// This sequence as an ``Observable`` that enforces the grammar, as
    /// RxSwift's default `asObservable()` (an `Observable.create` around
    /// `subscribe`) does: events after a terminal event, or after disposal,
    /// are dropped, and the source subscription is disposed as soon as a
    /// terminal event arrives. Tick's own sources (subjects, relays,
    /// connectable observables, traits) already keep the grammar and return
    /// themselves without that wrapper.
    // Inlinable, so that the subscription it wraps is specialized for the
    // concrete source where it is used.
    @inlinable
    public func asObservable() -> Observable<Element> {
        // `create` without its isolation check, written out so that the sink
        // is specialized for the concrete source where it is used.
        Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            sink.setUpstream(self.subscribe(AnyObserver(eventHandler: sink.forward)))
            return sink
        }
    }

    /// Subscribes `observer` through the sink that ``asObservable()`` puts
    /// over a source (what its observable runs): for TickTesting's test
    /// observables (package API), which keep the grammar themselves where
    /// they can and take this path where they cannot.
    @inlinable
    package func subscribeThroughGrammarSink(_ observer: AnyObserver<Element>) -> any Disposable {
        let sink = AnonymousSink(downstream: observer)
        sink.setUpstream(self.subscribe(AnyObserver(eventHandler: sink.forward)))
        return sink
    }

    /// This sequence as an ``Observable`` without a grammar-enforcing
    /// wrapper: for Tick's own sources, which keep the grammar themselves.
    @inlinable
    func passThroughObservable() -> Observable<Element> {
        Observable { observer in self.subscribe(observer) }
    }
}

/// An observable sequence: a recipe for producing events, run once per
/// subscription.
///
/// `Observable` is a small value type wrapping that recipe. Subscribing runs it;
/// the returned ``Disposable`` stops it.
public struct Observable<Element>: ObservableType {
    @usableFromInline let run: (AnyObserver<Element>) -> any Disposable
    /// For an observable made by an element-wise operator (`map`,
    /// `compactMap`): the chain of such stages down to the first source that
    /// is not one, so the next stage can fuse with them (see `Lift.swift`).
    @usableFromInline let stages: ElementStages?
    /// For an observable made by `concat` or by `flatMap`/`merge`: its
    /// sources, so that the same operator subscribing it as one of its own
    /// sources takes them over instead of nesting a sink per level (see
    /// `FlatMap.swift`). For a timer: its ``DirectSource``, which a closure
    /// subscription runs itself (see `DirectSource.swift`).
    @usableFromInline let nesting: NestedSources?

    /// An observable whose subscriptions run `subscribe`. Internal: operators
    /// build on this and enforce the grammar in their sinks; users call
    /// ``create(_:)``.
    @usableFromInline
    init(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable) {
        self.run = subscribe
        self.stages = nil
        self.nesting = nil
    }

    /// An observable whose subscriptions run `subscribe`, as an operator's
    /// are made (no sink of its own, no isolation check): for TickTesting's
    /// test observables, whose `asObservable()` either keeps the grammar
    /// itself or subscribes through ``ObservableType/subscribeThroughGrammarSink(_:)``
    /// (package API).
    @inlinable
    package static func subscribing(with subscribe: @escaping (AnyObserver<Element>) -> any Disposable) -> Self {
        Observable(subscribe)
    }

    /// A `concat` or `flatMap`/`merge` observable: `subscribe`, and its
    /// sources; or a direct source's observable (a timer): `subscribe`, and
    /// the source that a closure subscription may run itself instead
    /// (`DirectSource.swift`).
    @usableFromInline
    init(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable, nesting: NestedSources) {
        self.run = subscribe
        self.stages = nil
        self.nesting = nesting
    }

    /// An element-wise stage's observable: `subscribe`, and the chain of
    /// stages it ends.
    @usableFromInline
    init(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable, stages: ElementStages) {
        self.run = subscribe
        self.stages = stages
        self.nesting = nil
    }

    /// Subscribes `observer`.
    ///
    /// The outermost subscription on a thread runs inside the
    /// ``CurrentThreadScheduler`` trampoline: synchronous sources queue their
    /// elements there, so they are delivered after every operator in the chain
    /// has subscribed (and can stop them), but before this call returns.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        // Past a deep nesting of subscriptions, this one is queued on the
        // trampoline instead (CurrentThreadScheduler.maximumNestedSubscriptions).
        return CurrentThreadScheduler.subscribe(run, AnyObserver(observer))
    }

    public func asObservable() -> Observable<Element> { self }
}

extension Observable {
    /// An observable whose every subscription runs `subscribe`, which sends
    /// events to the observer it is given and returns a disposable that stops
    /// sending them.
    ///
    /// The grammar is enforced for you: events after a terminal event, or after
    /// the subscription is disposed, are dropped; after a terminal event the
    /// returned disposable is disposed.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func create(
        _ subscribe: @escaping (AnyObserver<Element>) -> any Disposable, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "create")
        return Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            // `subscribe` runs on the subscribing thread.
            if let check, !check.allowsCall() {
                sink.forwardError(check.error)
                return sink
            }
            sink.setUpstream(subscribe(AnyObserver(eventHandler: sink.forward)))
            return sink
        }
    }
}

/// The sink of `create` and of the default `asObservable()`: the grammar,
/// nothing else (the base class does it all).
@usableFromInline
final class AnonymousSink<Element>: Sink<Element>, @unchecked Sendable {
    @inlinable override init(downstream: AnyObserver<Element>) { super.init(downstream: downstream) }
}

extension ObservableType {
    /// Subscribes with closures for each kind of event.
    ///
    /// - Parameters:
    ///   - onNext: called for each element.
    ///   - onError: called once if the sequence fails. Without it, the error
    ///     goes to ``Hooks/defaultErrorHandler`` (which does nothing unless set).
    ///   - onCompleted: called once if the sequence completes.
    ///   - onDisposed: called once when the subscription ends, for any reason
    ///     (after `onError`/`onCompleted`, or on disposal).
    ///   - fileID, line: where the subscription is made: named by the
    ///     `.checksResourceLeaks` trait if it outlives its test (debug builds).
    ///   - isolation: the caller's isolation; leave the default. When the
    ///     caller is isolated to an actor (a `@MainActor` type), so are the
    ///     closures, and Tick calls them on that actor, in order: on the main
    ///     actor at once when the event arrives on the main queue with nothing
    ///     waiting, otherwise on the main queue; on another actor, in a task on
    ///     it (Docs/Concurrency.md).
    /// - Returns: a disposable that ends the subscription. After it is disposed
    ///   no closure but `onDisposed` is called.
    @inlinable
    public func subscribe(
        onNext: __owned ((Element) -> Void)? = nil,
        onError: __owned ((any Error) -> Void)? = nil,
        onCompleted: __owned (() -> Void)? = nil,
        onDisposed: __owned (() -> Void)? = nil,
        fileID: StaticString = #fileID, line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        #if DEBUG
        // The resources this subscription makes are recorded with this line
        // when a recording scope is current (the leak trait's). The
        // task-local is read only while some scope is alive.
        if Resources.currentIfAnyAlive != nil {
            return Resources.recordingSite(fileID: fileID, line: line) {
                subscribeClosures(
                    onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed,
                    isolation: isolation)
            }
        }
        #endif
        return subscribeClosures(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed, isolation: isolation)
    }

    /// (The closures are `__owned`, here and in `subscribe`, and consumed
    /// into the sink: the caller's references move into the sink, which
    /// keeps them, instead of being borrowed and copied; one retain and one
    /// release fewer a closure.)
    @inlinable
    func subscribeClosures(
        onNext: __owned ((Element) -> Void)?,
        onError: __owned ((any Error) -> Void)?,
        onCompleted: __owned (() -> Void)?,
        onDisposed: __owned (() -> Void)?,
        isolation: isolated (any Actor)?
    ) -> any Disposable {
        // No `onError`: the error goes to `Hooks.defaultErrorHandler`, if one
        // was set (nil otherwise, at the cost of one atomic load).
        let onError = onError ?? Hooks.unhandledErrorObserver()
        // (The nil check here first: most subscriptions are not isolated,
        // and the call costs more than the check.)
        if isolation != nil, let delivery = IsolatedDelivery.forIsolation(isolation) {
            return subscribeIsolated(
                delivery: delivery, onNext: onNext, onError: onError, onCompleted: onCompleted,
                onDisposed: onDisposed)
        }
        // A source that this subscription can run itself (a timer with no
        // operator in between: `DirectSource.swift`) delivers straight into
        // the sink; everything else subscribes through an observer.
        // (Specialized, the cast is decided at compile time.)
        // (Every path ends in one `return` of one `ClosureSink`: the
        // disposable is then made from a value of one known class, and a
        // caller that drops it, inlined, releases the object instead of
        // destroying an existential through its value witnesses.)
        let sink: ClosureSink<Element>
        if let direct = (self as? Observable<Element>)?.nesting as? DirectSource<Element> {
            // The source's first closure subscription takes the source itself
            // as its sink (one object a timer); any later one makes its own.
            if direct.claim() {
                direct.install(
                    onNext: consume onNext, onError: consume onError, onCompleted: consume onCompleted,
                    onDisposed: consume onDisposed)
                direct.startAsOwnSink()
                sink = direct
            } else {
                sink = ClosureSink(
                    onNext: consume onNext, onError: consume onError, onCompleted: consume onCompleted,
                    onDisposed: consume onDisposed)
                sink.setUpstream(direct.start(sink))
            }
        } else {
            sink = ClosureSink(
                onNext: consume onNext, onError: consume onError, onCompleted: consume onCompleted,
                onDisposed: consume onDisposed)
            sink.setUpstream(subscribe(AnyObserver(eventHandler: sink.on)))
        }
        return sink
    }

    /// Subscribes with one closure that receives every event.
    ///
    /// Called from an actor-isolated context, the closure is called on that
    /// actor, like the closures of ``subscribe(onNext:onError:onCompleted:onDisposed:isolation:)``.
    public func subscribe(
        _ on: @escaping (Event<Element>) -> Void, fileID: StaticString = #fileID, line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        Resources.recordingSite(fileID: fileID, line: line) {
            guard isolation != nil else { return subscribe(AnyObserver(eventHandler: on)) }
            return subscribe(onNext: { on(.next($0)) }, onError: { on(.error($0)) }, onCompleted: { on(.completed) })
        }
    }
}

// @unchecked: an `Observable` is immutable (two `let`s): sending it sends a
// recipe, and every subscription builds its own state in thread-safe sinks.
// What the compiler cannot check is the recipe's closures, which are not
// `@Sendable` (Rx style, like the standard library's `AsyncMapSequence`): they
// run on the thread the events arrive on, one call at a time per
// subscription, as they already do when a scheduler moves a chain; the
// closures given to `subscribe` are protected by their isolation
// (Docs/Concurrency.md, "What Tick checks and what it trusts").
// Unconditional, not `where Element: Sendable`: with a conditional Sendable
// conformance the Swift 6 compiler no longer infers `Element` in
// `Observable.merge(a, b)` and every other static operator that shares its
// name with an instance operator (swiftlang/swift#80146; proven by
// ConcurrencyAPIShapeTests). An element that is not Sendable must not be
// shared by the recipe itself (`just(sharedObject)`) across threads.
extension Observable: @unchecked Sendable {}

/// What an observable records for a subscriber that may take it over
/// (`Observable.nesting`): the sources of a nested `concat` or
/// `flatMap`/`merge` (FlatMap.swift), or a source a closure subscription runs
/// itself (DirectSource.swift).
@usableFromInline
class NestedSources {
    /// The scheduled action of a source that is its own pending work (a
    /// directly subscribed one-shot timer: `OneShotTimerSource`, which
    /// overrides it); does nothing on any other. On this non-generic class
    /// so that the action's closure captures the object alone (its
    /// context, no allocation), not a generic class's type too.
    func fire() {}
}
