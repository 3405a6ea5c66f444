// `bind(to:)`: subscribing a sequence to observers, subjects and relays.

extension ObservableType {
    /// Sends every event of this sequence to each of `observers` (subjects
    /// included), in the order given.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        forwardAll(to: observers.map { $0.asObserver() })
    }

    /// Sends every event of this sequence, its elements wrapped in an
    /// optional, to each of `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element? {
        map { $0 as Element? }.forwardAll(to: observers.map { $0.asObserver() })
    }

    /// Passes every element to each of `relays`. A relay cannot end, so the
    /// completion is ignored; an error is a binding mistake: it is reported
    /// through ``Misuse`` and the binding ends.
    public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        bindElements("PublishRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Passes every element, wrapped in an optional, to each of `relays`.
    public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
        bindElements("PublishRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Passes every element to each of `relays` (see the `PublishRelay` form).
    public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        bindElements("BehaviorRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Passes every element, wrapped in an optional, to each of `relays`.
    public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        bindElements("BehaviorRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Passes every element to each of `relays`.
    public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
        bindElements("ReplayRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Passes every element, wrapped in an optional, to each of `relays`.
    public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
        bindElements("ReplayRelay") { element in relays.forEach { $0.accept(element) } }
    }

    /// Calls `binder` with this sequence and returns its result (RxSwift's
    /// hook for custom bindings).
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls `binder` with this sequence, then the result with
    /// `curriedArgument`.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Calls `onNext` for each element. An error is a binding mistake: it is
    /// reported through ``Misuse`` and the binding ends.
    public func bind(
        onNext: @escaping (Element) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        bindElements("bind(onNext:)", onNext)
    }

    /// Sends every event to `observers`; like `subscribe(onNext:…)`, the
    /// source subscription is disposed after a terminal event.
    func forwardAll(to observers: [AnyObserver<Element>]) -> any Disposable {
        subscribe(
            onNext: { element in observers.forEach { $0.on(.next(element)) } },
            onError: { error in observers.forEach { $0.on(.error(error)) } },
            onCompleted: { observers.forEach { $0.on(.completed) } })
    }

    func bindElements(
        _ target: String, _ accept: @escaping (Element) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        subscribe(onNext: accept, onError: { error in
            Misuse.report("An error was bound to \(target): \(error). Bindings must not fail; catch errors before binding.")
        })
    }
}
