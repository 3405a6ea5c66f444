import Synchronization

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
    // Inlinable, so that the subscription it wraps is specialized for the
    // concrete source where it is used.
    @inlinable
    public func asObservable() -> Observable<Element> {
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
    /// `FlatMap.swift`).
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

    /// A `concat` or `flatMap`/`merge` observable: `subscribe`, and its sources.
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
    public static func create(
        _ subscribe: @escaping (AnyObserver<Element>) -> any Disposable
    ) -> Observable<Element> {
        Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            sink.setUpstream(subscribe(AnyObserver(eventHandler: sink.forward)))
            return sink
        }
    }
}

final class AnonymousSink<Element>: Sink<Element>, @unchecked Sendable {}

extension ObservableType {
    /// Subscribes with closures for each kind of event.
    ///
    /// - Parameters:
    ///   - onNext: called for each element.
    ///   - onError: called once if the sequence fails.
    ///   - onCompleted: called once if the sequence completes.
    ///   - onDisposed: called once when the subscription ends, for any reason
    ///     (after `onError`/`onCompleted`, or on disposal).
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
        onNext: ((Element) -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        if let delivery = IsolatedDelivery.forIsolation(isolation) {
            return subscribeIsolated(
                delivery: delivery, onNext: onNext, onError: onError, onCompleted: onCompleted,
                onDisposed: onDisposed)
        }
        let sink = ClosureSink(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        sink.setUpstream(subscribe(AnyObserver(eventHandler: sink.on)))
        return ClosureSubscription(sink)
    }

    /// Subscribes with one closure that receives every event.
    ///
    /// Called from an actor-isolated context, the closure is called on that
    /// actor, like the closures of ``subscribe(onNext:onError:onCompleted:onDisposed:isolation:)``.
    public func subscribe(
        _ on: @escaping (Event<Element>) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        guard isolation != nil else { return subscribe(AnyObserver(eventHandler: on)) }
        return subscribe(onNext: { on(.next($0)) }, onError: { on(.error($0)) }, onCompleted: { on(.completed) })
    }
}

/// The observer made by `subscribe(onNext:onError:onCompleted:onDisposed:)`.
///
/// Order on a terminal event, as in RxSwift: `onError`/`onCompleted`, then
/// `onDisposed`, then the upstream subscription is disposed. On disposal: the
/// upstream subscription is disposed, then `onDisposed` runs.
///
/// The closures are immutable, so delivery on one thread never races with
/// disposal on another. They are released when the sink is: the caller holds a
/// ``ClosureSubscription``, which lets go of the sink on disposal, and the
/// upstream chain lets go of it when it is disposed.
@usableFromInline
final class ClosureSink<Element>: Sink<Never>, @unchecked Sendable {
    @usableFromInline let onNext: ((Element) -> Void)?
    @usableFromInline let onError: ((any Error) -> Void)?
    @usableFromInline let onCompleted: (() -> Void)?
    @usableFromInline let onDisposed: (() -> Void)?

    @usableFromInline
    init(
        onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?,
        onCompleted: (() -> Void)?, onDisposed: (() -> Void)?
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.onDisposed = onDisposed
        super.init(downstream: AnyObserver { _ in })
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        switch event {
        case .next(let element):
            onNext?(element)
        case .error(let error):
            finish {
                onError?(error)
                onDisposed?()
            }
        case .completed:
            finish {
                onCompleted?()
                onDisposed?()
            }
        }
    }

    /// Runs on disposal (not after a terminal event, which already ran
    /// `onDisposed` before cleaning up).
    @usableFromInline
    override func disposeResources() {
        if !isTerminatedByEvent { onDisposed?() }
    }

    @inlinable
    func finish(_ body: () -> Void) {
        terminate(body)
    }
}

/// What `subscribe(onNext:…)` returns: disposing it disposes the subscription
/// and lets go of the closures, so a closure that captures its owner does not
/// keep the owner alive through the owner's dispose bag.
@usableFromInline
final class ClosureSubscription<Element>: Cancelable, @unchecked Sendable {
    @usableFromInline let disposed = Atomic<Bool>(false)
    /// Touched only by the caller that flipped `disposed` (and at init).
    @usableFromInline @exclusivity(unchecked) var sink: ClosureSink<Element>?

    @inlinable
    init(_ sink: ClosureSink<Element>) { self.sink = sink }

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @inlinable
    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Only the caller that flipped the flag touches `sink` from here on.
        let sink = self.sink
        self.sink = nil
        sink?.dispose()
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
