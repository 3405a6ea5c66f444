/// What a ``Maybe`` tells its subscriber: its element, its error, or that it
/// completed without an element.
public enum MaybeEvent<Element> {
    /// The maybe's element; the maybe is over.
    case success(Element)
    /// The maybe failed.
    case error(any Error)
    /// The maybe completed without an element.
    case completed
}

extension PrimitiveSequence where Trait == MaybeTrait {
    /// The callback a ``create(subscribe:)`` closure sends its one event to.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// A maybe whose every subscription runs `subscribe`, which calls the
    /// observer it is given once (later calls are ignored) and returns a
    /// disposable that cancels the work.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func create(
        subscribe: @escaping (@escaping MaybeObserver) -> any Disposable, isolation: (any Actor)? = #isolation
    ) -> Maybe<Element> {
        Maybe(raw: Observable.create({ observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    observer.on(.completed)
                }
            }
        }, isolation: isolation))
    }

    /// Succeeds with `element` at subscription.
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: .just(element))
    }

    /// Succeeds with `element` on `scheduler`.
    public static func just(_ element: Element, scheduler: any Scheduler) -> Maybe<Element> {
        Maybe(raw: Observable.just(element, scheduler: scheduler))
    }

    /// Completes at subscription without an element.
    public static func empty() -> Maybe<Element> {
        Maybe(raw: .empty())
    }

    // MARK: Subscribing

    /// Subscribes with closures for each outcome; `onDisposed` runs once when
    /// the subscription ends, for any reason.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        // `completed` after an element is the end of a success, not an empty
        // completion.
        var succeeded = false
        return source.subscribe(
            onNext: { element in
                succeeded = true
                onSuccess?(element)
            },
            onError: onError,
            onCompleted: { if !succeeded { onCompleted?() } },
            onDisposed: onDisposed)
    }

    /// Subscribes with closures that also receive `object`, held weakly: once
    /// it is gone, the closures are no longer called.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } })
    }

    /// Subscribes with one closure that receives the maybe's one event.
    public func subscribe(
        _ observer: @escaping (MaybeEvent<Element>) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        subscribe(
            onSuccess: { observer(.success($0)) }, onError: { observer(.error($0)) },
            onCompleted: { observer(.completed) })
    }

    // MARK: Operators

    /// Transforms the element; an error `transform` throws fails the maybe.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)? = #isolation
    ) -> Maybe<Result> {
        Maybe(raw: source.map(transform, isolation: isolation))
    }

    /// Transforms the element; `nil` completes without an element.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, isolation: (any Actor)? = #isolation
    ) -> Maybe<Result> {
        Maybe(raw: source.compactMap(transform, isolation: isolation))
    }

    /// Keeps the element only if `predicate` holds.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Maybe<Element> {
        Maybe(raw: source.filter(predicate, isolation: isolation))
    }

    /// Transforms the element into another maybe and mirrors it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMap<Result>(
        _ selector: @escaping (Element) throws -> Maybe<Result>, isolation: (any Actor)? = #isolation
    ) -> Maybe<Result> {
        Maybe(raw: source.flatMap({ try selector($0).source }, isolation: isolation))
    }

    /// On error, continues with the maybe `handler` returns for it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `catch`(
        _ handler: @escaping (any Error) throws -> Maybe<Element>, isolation: (any Actor)? = #isolation
    ) -> Maybe<Element> {
        Maybe(raw: source.catch({ try handler($0).source }, isolation: isolation))
    }

    /// On error, succeeds with `element`.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(raw: source.catchAndReturn(element))
    }

    /// A ``Single`` that succeeds with `default` if this maybe completes empty.
    public func ifEmpty(default: Element) -> Single<Element> {
        Single(raw: source.ifEmpty(default: `default`))
    }

    /// Continues with `other` if this maybe completes empty.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: source.ifEmpty(switchTo: other.source))
    }

    /// Continues with the single `other` if this maybe completes empty.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: source.ifEmpty(switchTo: other.source))
    }

    /// Runs side effects without changing the events.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Maybe<Element> {
        Maybe(raw: source.do(
            onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, isolation: isolation))
    }

    /// Completes when the maybe terminates, ignoring its element.
    public func asCompletable() -> Completable { Completable(raw: source.ignoreElements()) }
}

extension MaybeEvent: Sendable where Element: Sendable {}

extension MaybeEvent: Equatable where Element: Equatable {
    /// Two events are equal when they are the same case with equal payloads;
    /// errors compare with ``errorsAreEqual(_:_:)``, as in ``Event``.
    public static func == (lhs: MaybeEvent, rhs: MaybeEvent) -> Bool {
        switch (lhs, rhs) {
        case (.success(let l), .success(let r)): l == r
        case (.error(let l), .error(let r)): errorsAreEqual(l, r)
        case (.completed, .completed): true
        default: false
        }
    }
}

extension MaybeEvent: CustomStringConvertible {
    /// `success(…)` with the element, `error(…)` with the error, or `completed`.
    public var description: String {
        switch self {
        case .success(let element): "success(\(element))"
        case .error(let error): "error(\(error))"
        case .completed: "completed"
        }
    }
}
