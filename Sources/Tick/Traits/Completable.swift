/// What a ``Completable`` tells its subscriber: that it completed, or its error.
public enum CompletableEvent {
    /// The completable failed.
    case error(any Error)
    /// The completable completed.
    case completed
}

extension PrimitiveSequence where Trait == CompletableTrait, Element == Never {
    /// The callback a ``create(subscribe:)`` closure sends its one event to.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A completable whose every subscription runs `subscribe`, which calls
    /// the observer it is given once (later calls are ignored) and returns a
    /// disposable that cancels the work.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func create(
        subscribe: @escaping (@escaping CompletableObserver) -> any Disposable, isolation: (any Actor)? = #isolation
    ) -> Completable {
        Completable(raw: Observable.create({ observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }, isolation: isolation))
    }

    /// Completes at subscription.
    public static func empty() -> Completable {
        Completable(raw: .empty())
    }

    /// Subscribes with closures for completion and error; `onDisposed` runs
    /// once when the subscription ends, for any reason.
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that also receive `object`, held weakly: once
    /// it is gone, the closures are no longer called.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(with: object, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with one closure that receives the completable's one event.
    public func subscribe(
        _ observer: @escaping (CompletableEvent) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onError: { observer(.error($0)) }, onCompleted: { observer(.completed) })
    }

    /// When this completes, continues with `second`'s element.
    public func andThen<Result>(_ second: Single<Result>) -> Single<Result> {
        Single(raw: thenSubscribe(second.source))
    }

    /// When this completes, continues with `second`.
    public func andThen<Result>(_ second: Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: thenSubscribe(second.source))
    }

    /// When this completes, continues with `second`.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: thenSubscribe(second.source))
    }

    /// When this completes, continues with the observable `second`.
    public func andThen<Result>(_ second: Observable<Result>) -> Observable<Result> {
        thenSubscribe(second)
    }

    /// This completable, then `second`. As RxSwift's `andThen`, the
    /// subscription holds only `second` and the current subscription: once
    /// this completable completes, its subscription is replaced by
    /// `second`'s, so nothing of its chain is kept alive after that.
    private func thenSubscribe<Result>(_ second: Observable<Result>) -> Observable<Result> {
        let first = source
        return Observable { observer in
            let sink = AndThenSink(downstream: observer, second: second)
            sink.run(first)
            return sink
        }
    }

    /// On error, continues with the completable `handler` returns for it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `catch`(
        _ handler: @escaping (any Error) throws -> Completable, isolation: (any Actor)? = #isolation
    ) -> Completable {
        Completable(raw: source.catch({ try handler($0).source }, isolation: isolation))
    }

    /// Runs side effects without changing the events.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `do`(
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Completable {
        Completable(raw: source.do(
            onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, isolation: isolation))
    }

    /// Completes when every one of `sources` completed; the first error fails it.
    public static func zip(_ sources: Completable...) -> Completable {
        zip(sources)
    }

    /// Completes when every one of `sources` completed (at once if there are
    /// none); the first error fails it.
    public static func zip<C: Collection>(_ sources: C) -> Completable where C.Element == Completable {
        Completable(raw: Observable.merge(sources.map(\.source)))
    }

    /// Subscribes to `sources` one after the other; completes after the last.
    public static func concat(_ sources: Completable...) -> Completable {
        concat(sources)
    }

    /// Subscribes to the completables of `sources` (an array or any other
    /// sequence) one after the other; completes after the last (at once if
    /// there are none); the first error fails it.
    public static func concat<S: Sequence>(_ sources: S) -> Completable where S.Element == Completable {
        Completable(raw: Observable.concat(sources.map(\.source)))
    }

    /// When this completes, subscribes to `second`; completes when it does.
    public func concat(_ second: Completable) -> Completable {
        Completable(raw: source.concat(second.source))
    }

    /// Subscribes to all `sources` at once; completes when all completed.
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }
}

extension CompletableEvent: Equatable {
    /// Two events are equal when they are the same case; errors compare with
    /// ``errorsAreEqual(_:_:)``, as in ``Event``.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.error(let l), .error(let r)): errorsAreEqual(l, r)
        case (.completed, .completed): true
        default: false
        }
    }
}

extension CompletableEvent: CustomStringConvertible {
    /// `completed`, or `error(…)` with the error.
    public var description: String {
        switch self {
        case .completed: "completed"
        case .error(let error): "error(\(error))"
        }
    }
}

extension CompletableEvent: Sendable {}

/// `andThen`'s subscription: the first completable's subscription, replaced
/// by the second sequence's when the first completes.
final class AndThenSink<Result>: Sink<Result>, @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock`; let go of once subscribed.
    private var second: Observable<Result>?
    private let current = SerialDisposable()

    init(downstream: AnyObserver<Result>, second: Observable<Result>) {
        self.second = second
        super.init(downstream: downstream)
    }

    func run(_ first: Observable<Never>) {
        setUpstream(current)
        let firstSubscription = SingleAssignmentDisposable()
        current.disposable = firstSubscription
        firstSubscription.setDisposable(first.subscribe(AnyObserver { [self] event in
            switch event {
            case .next(let never): switch never {}
            case .error(let error): forwardError(error)
            case .completed:
                let second: Observable<Result>? = lock.withLock {
                    defer { self.second = nil }
                    return self.second
                }
                guard let second, !isDisposed else { return }
                // Replacing the first subscription disposes it.
                current.disposable = second.subscribe(AnyObserver(eventHandler: forward))
            }
        }))
    }

    override func disposeResources() {
        lock.withLock { second = nil }
    }
}
