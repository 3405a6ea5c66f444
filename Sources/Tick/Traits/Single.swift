/// What a ``Single`` tells its subscriber: its element (`.success`) or its
/// error (`.failure`). As in RxSwift, this is Swift's `Result`.
public typealias SingleEvent<Element> = Result<Element, any Error>

extension PrimitiveSequence where Trait == SingleTrait {
    /// The callback a ``create(subscribe:)`` closure sends its one event to.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A single whose every subscription runs `subscribe`, which calls the
    /// observer it is given once (later calls are ignored) and returns a
    /// disposable that cancels the work.
    public static func create(
        subscribe: @escaping (@escaping SingleObserver) -> any Disposable
    ) -> Single<Element> {
        Single(raw: Observable.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        })
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
        onDisposed: (() -> Void)? = nil
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
        onDisposed: ((Object) -> Void)? = nil
    ) -> any Disposable {
        source.subscribe(with: object, onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
    }

    /// Subscribes with one closure that receives the single's one event.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> any Disposable {
        source.subscribe(onNext: { observer(.success($0)) }, onError: { observer(.failure($0)) })
    }

    // MARK: Operators

    /// Transforms the element; an error `transform` throws fails the single.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: source.map(transform))
    }

    /// Transforms the element into another single and succeeds or fails with it.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: source.flatMap { try selector($0).source })
    }

    /// Transforms the element into a ``Maybe`` and mirrors it.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: source.flatMap { try selector($0).source })
    }

    /// Transforms the element into a ``Completable`` and mirrors it.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: source.flatMap { try selector($0).source })
    }

    /// Transforms the element; `nil` makes an empty ``Maybe``.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: source.compactMap(transform))
    }

    /// Keeps the element only if `predicate` holds, as a ``Maybe``.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: source.filter(predicate))
    }

    /// On error, continues with the single `handler` returns for it.
    public func `catch`(_ handler: @escaping (any Error) throws -> Single<Element>) -> Single<Element> {
        Single(raw: source.catch { try handler($0).source })
    }

    /// On error, succeeds with `element`.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: source.catchAndReturn(element))
    }

    /// Runs side effects without changing the event (see
    /// ``ObservableType/do(onNext:afterNext:onError:afterError:onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:)``).
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(raw: source.do(
            onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// This single as a ``Maybe`` (that always has its element).
    public func asMaybe() -> Maybe<Element> { Maybe(raw: source) }

    /// Completes when the single succeeds, ignoring its element.
    public func asCompletable() -> Completable { Completable(raw: source.ignoreElements()) }

    /// Succeeds with the elements of both singles once both succeeded; the
    /// first error fails it.
    public static func zip<E1, E2>(
        _ source1: Single<E1>, _ source2: Single<E2>,
        resultSelector: @escaping (E1, E2) throws -> Element
    ) -> Single<Element> {
        Single(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// Succeeds with a tuple of the elements of both singles.
    public static func zip<E1, E2>(_ source1: Single<E1>, _ source2: Single<E2>) -> Single<(E1, E2)>
    where Element == (E1, E2) {
        zip(source1, source2) { ($0, $1) }
    }

    /// Succeeds with the elements of all `sources`, in order, once all
    /// succeeded (at once with `[]` if there are none).
    public static func zip<C: Collection, E>(_ sources: C) -> Single<[E]>
    where C.Element == Single<E>, Element == [E] {
        if sources.isEmpty { return .just([]) }
        return Single(raw: Observable<E>.zip(sources.map(\.source)))
    }
}
