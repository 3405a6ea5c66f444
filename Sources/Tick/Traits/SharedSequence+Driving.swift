// Subscribing to a Driver (`drive`) or a Signal (`emit`): closures,
// observers and relays, optional or not, as in RxCocoa.

// MARK: Driving

extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// Subscribes with closures (a driver cannot fail, so there is no
    /// `onError`).
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that also receive `object`, held weakly.
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Sends the elements and the completion to each of `observers`.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        source.forwardAll(to: observers.map { $0.asObserver() })
    }

    /// Sends the elements, wrapped in optionals, and the completion to each of `observers`.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable
    where Observer.Element == Element? {
        source.map { $0 as Element? }.forwardAll(to: observers.map { $0.asObserver() })
    }

    /// Passes the elements to each of `relays`.
    public func drive(_ relays: BehaviorRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Passes the elements, wrapped in optionals, to each of `relays`.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Passes the elements to each of `relays`.
    public func drive(_ relays: ReplayRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Passes the elements, wrapped in optionals, to each of `relays`.
    public func drive(_ relays: ReplayRelay<Element?>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes without observing anything: the driver's work runs for its
    /// side effects.
    public func drive() -> any Disposable {
        source.subscribe()
    }

    /// Calls `transformation` with the driver as an observable and returns
    /// its result (RxCocoa's hook for custom bindings).
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        transformation(source)
    }

    /// Calls `transformation` with the driver as an observable, then the
    /// result with `curriedArgument`.
    public func drive<R1, R2>(
        _ transformation: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1
    ) -> R2 {
        transformation(source)(curriedArgument)
    }

    /// This driver as a ``Signal`` (without the replay).
    public func asSignal() -> Signal<Element> {
        Signal(source)
    }
}

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// Subscribes with closures (a signal cannot fail, so there is no
    /// `onError`).
    public func emit(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that also receive `object`, held weakly.
    public func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        source.subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Sends the elements and the completion to each of `observers`.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element {
        source.forwardAll(to: observers.map { $0.asObserver() })
    }

    /// Sends the elements, wrapped in optionals, and the completion to each of `observers`.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> any Disposable
    where Observer.Element == Element? {
        source.map { $0 as Element? }.forwardAll(to: observers.map { $0.asObserver() })
    }

    /// Passes the elements, wrapped in optionals, to each of `relays`.
    public func emit(to relays: PublishRelay<Element?>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Passes the elements, wrapped in optionals, to each of `relays`.
    public func emit(to relays: BehaviorRelay<Element?>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Passes the elements, wrapped in optionals, to each of `relays`.
    public func emit(to relays: ReplayRelay<Element?>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes without observing anything: the signal's work runs for its
    /// side effects.
    public func emit() -> any Disposable {
        source.subscribe()
    }

    /// Passes the elements to each of `relays`.
    public func emit(to relays: PublishRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Passes the elements to each of `relays`.
    public func emit(to relays: BehaviorRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Passes the elements to each of `relays`.
    public func emit(to relays: ReplayRelay<Element>...) -> any Disposable {
        source.subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
