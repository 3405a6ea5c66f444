/// What a ``Single`` tells its subscriber: its element (`.success`) or its
/// error (`.failure`). As in RxSwift, this is Swift's `Result`.
public typealias SingleEvent<Element> = Result<Element, any Error>

extension PrimitiveSequence where Trait == SingleTrait {
    /// The callback a ``create(subscribe:)`` closure sends its one event to.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A single whose every subscription runs `subscribe`, which calls the
    /// observer it is given once (later calls are ignored) and returns a
    /// disposable that cancels the work.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func create(
        subscribe: @escaping (@escaping SingleObserver) -> any Disposable, isolation: (any Actor)? = #isolation
    ) -> Single<Element> {
        Single(raw: Observable.create({ observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        }, isolation: isolation))
    }

    /// Succeeds with `element` at subscription.
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: .just(element))
    }

    /// Succeeds with `element` on `scheduler` (an action scheduled at
    /// subscription; see ``Observable/just(_:scheduler:)``).
    public static func just(_ element: Element, scheduler: any Scheduler) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    // MARK: Subscribing

    /// Subscribes with closures for the element and the error.
    ///
    /// - Parameters:
    ///   - onSuccess: called once with the element.
    ///   - onFailure: called once if the single fails.
    ///   - onDisposed: called once when the subscription ends, for any reason.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((any Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
    }

    /// Subscribes with closures that also receive `object`, held weakly: once
    /// it is gone, the closures are no longer called (`onDisposed` still is,
    /// with no object).
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, any Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(with: object, onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
    }

    /// Subscribes with one closure that receives the single's one event.
    public func subscribe(
        _ observer: @escaping (SingleEvent<Element>) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onNext: { observer(.success($0)) }, onError: { observer(.failure($0)) })
    }

    // MARK: Operators

    /// Transforms the element; an error `transform` throws fails the single.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)? = #isolation
    ) -> Single<Result> {
        Single(raw: source.map(transform, isolation: isolation))
    }

    /// Transforms the element into another single and succeeds or fails with it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMap<Result>(
        _ selector: @escaping (Element) throws -> Single<Result>, isolation: (any Actor)? = #isolation
    ) -> Single<Result> {
        Single(raw: source.flatMap({ try selector($0).source }, isolation: isolation))
    }

    /// Transforms the element into a ``Maybe`` and mirrors it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapMaybe<Result>(
        _ selector: @escaping (Element) throws -> Maybe<Result>, isolation: (any Actor)? = #isolation
    ) -> Maybe<Result> {
        Maybe(raw: source.flatMap({ try selector($0).source }, isolation: isolation))
    }

    /// Transforms the element into a ``Completable`` and mirrors it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapCompletable(
        _ selector: @escaping (Element) throws -> Completable, isolation: (any Actor)? = #isolation
    ) -> Completable {
        Completable(raw: source.flatMap({ try selector($0).source }, isolation: isolation))
    }

    /// Transforms the element; `nil` makes an empty ``Maybe``.
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

    /// Keeps the element only if `predicate` holds, as a ``Maybe``.
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

    /// On error, continues with the single `handler` returns for it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `catch`(
        _ handler: @escaping (any Error) throws -> Single<Element>, isolation: (any Actor)? = #isolation
    ) -> Single<Element> {
        Single(raw: source.catch({ try handler($0).source }, isolation: isolation))
    }

    /// On error, succeeds with `element`.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: source.catchAndReturn(element))
    }

    /// Runs side effects without changing the event (see
    /// ``ObservableType/do(onNext:afterNext:onError:afterError:onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:)``).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Single<Element> {
        Single(raw: source.do(
            onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, isolation: isolation))
    }

    /// This single as a ``Maybe`` (that always has its element).
    public func asMaybe() -> Maybe<Element> { Maybe(raw: source) }

    /// Completes when the single succeeds, ignoring its element.
    public func asCompletable() -> Completable { Completable(raw: source.ignoreElements()) }
}
