/// How a ``SharedSequence`` shares its source and which scheduler it
/// delivers on: ``DriverSharingStrategy`` or ``SignalSharingStrategy``.
public protocol SharingStrategyProtocol {
    /// The scheduler the sequences of this strategy deliver their elements on.
    static var scheduler: any Scheduler { get }
    /// Shares `source` among all observers, the strategy's way.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A sequence for driving UI state: it never fails, delivers on
/// ``SharingScheduler`` (the main scheduler unless mocked), and shares one
/// subscription among all observers. ``Driver`` replays its latest element to
/// new observers; ``Signal`` does not.
///
/// Like the ``PrimitiveSequence`` traits it is an ``ObservableType`` in Tick,
/// so it can be passed to `TestScheduler.start` or returned from `flatMap`;
/// its own operators (which keep it a shared sequence) are preferred.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: ObservableType {
    @usableFromInline let source: Observable<Element>

    /// Shares `source` with the strategy's rule. `source` must not fail and
    /// must deliver on the strategy's scheduler.
    @usableFromInline
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps `source`, which is already shared.
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// Subscribes `observer` (prefer `drive`/`emit`, which say what they do).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The shared sequence as an observable.
    public func asObservable() -> Observable<Element> { source }

    /// The scheduler of the strategy: the one elements are delivered on.
    public static var scheduler: any Scheduler { SharingStrategy.scheduler }
}

/// The scheduler that ``Driver`` and ``Signal`` deliver on: the main queue
/// (synchronously when already there with nothing queued, see ``make()``),
/// unless replaced with ``mock(scheduler:action:)`` (a `TestScheduler`, in
/// tests).
///
/// The replacement is task-local, so tests running in parallel do not see each
/// other's schedulers. The scheduler is read when a driver or signal is
/// *created* (by `asDriver`, `Driver.just`, `throttle`, …), as in RxSwift.
public enum SharingScheduler {
    @TaskLocal static var mocked: (any Scheduler)?

    /// The scheduler drivers and signals created now deliver on: the mocked
    /// one, or else a new ``ImmediateMainScheduler`` for each call, as
    /// RxCocoa makes a new `MainScheduler` for each conversion. On the main
    /// queue with nothing of that conversion's work waiting, delivery is
    /// synchronous (`Driver.just(1).drive(onNext:)` on the main thread sees
    /// `1` before `drive` returns); from another thread, or behind that
    /// conversion's own queued work, it waits its turn on the main queue. A
    /// scheduler of its own per conversion lets a driver that drives another
    /// from inside its delivery still deliver at once.
    public static func make() -> any Scheduler {
        mocked ?? ImmediateMainScheduler()
    }

    /// Runs `action` with drivers and signals delivering on `scheduler`.
    public static func mock<Result>(scheduler: any Scheduler, action: () throws -> Result) rethrows -> Result {
        try $mocked.withValue(scheduler, operation: action)
    }

    /// Runs `action` with drivers and signals delivering on the scheduler
    /// `makeScheduler` returns (called once).
    public static func mock<Result>(
        makeScheduler: () -> any Scheduler, action: () throws -> Result
    ) rethrows -> Result {
        try mock(scheduler: makeScheduler(), action: action)
    }

    /// The asynchronous form of ``mock(scheduler:action:)``.
    public static func mock<Result>(
        scheduler: any Scheduler, action: () async throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> Result {
        try await $mocked.withValue(scheduler, operation: action)
    }
}

/// The ``Driver`` strategy: shared with `share(replay: 1, scope: .whileConnected)`.
public enum DriverSharingStrategy: SharingStrategyProtocol {
    public static var scheduler: any Scheduler { SharingScheduler.make() }
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

/// The ``Signal`` strategy: shared with `share(scope: .whileConnected)` (no replay).
public enum SignalSharingStrategy: SharingStrategyProtocol {
    public static var scheduler: any Scheduler { SharingScheduler.make() }
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

/// A shared sequence that cannot fail, delivers on the main scheduler and
/// replays its latest element to new observers: UI state.
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>
/// A shared sequence that cannot fail, delivers on the main scheduler and does
/// not replay: UI events.
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

// MARK: Converting observables

extension ObservableType {
    /// This sequence as a ``Driver``: delivered on ``SharingScheduler``, an
    /// error replaced by `onErrorJustReturn` followed by completion.
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        let scheduler = DriverSharingStrategy.scheduler
        return Driver(asObservable().observe(on: scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a ``Driver``, continuing with `onErrorDriveWith` on error.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        let scheduler = DriverSharingStrategy.scheduler
        return Driver(asObservable().observe(on: scheduler).catch { _ in onErrorDriveWith.source })
    }

    /// This sequence as a ``Driver``, continuing with the driver
    /// `onErrorRecover` returns for the error.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func asDriver(
        onErrorRecover: @escaping (any Error) -> Driver<Element>, isolation: (any Actor)? = #isolation
    ) -> Driver<Element> {
        let scheduler = DriverSharingStrategy.scheduler
        return Driver(asObservable().observe(on: scheduler).catch({ onErrorRecover($0).source }, isolation: isolation))
    }

    /// This sequence as a ``Signal``, an error replaced by `onErrorJustReturn`
    /// followed by completion.
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        let scheduler = SignalSharingStrategy.scheduler
        return Signal(asObservable().observe(on: scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a ``Signal``, continuing with `onErrorSignalWith` on error.
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        let scheduler = SignalSharingStrategy.scheduler
        return Signal(asObservable().observe(on: scheduler).catch { _ in onErrorSignalWith.source })
    }

    /// This sequence as a ``Signal``, continuing with the signal
    /// `onErrorRecover` returns for the error.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func asSignal(
        onErrorRecover: @escaping (any Error) -> Signal<Element>, isolation: (any Actor)? = #isolation
    ) -> Signal<Element> {
        let scheduler = SignalSharingStrategy.scheduler
        return Signal(asObservable().observe(on: scheduler).catch({ onErrorRecover($0).source }, isolation: isolation))
    }
}

extension BehaviorRelay {
    /// The relay as a ``Driver`` (a relay cannot fail).
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension PublishRelay {
    /// The relay as a ``Signal`` (a relay cannot fail).
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}

// MARK: Creation

extension SharedSequence {
    /// Emits `element` on the strategy's scheduler, then completes.
    public static func just(_ element: Element) -> SharedSequence {
        SharedSequence(Observable.just(element, scheduler: SharingStrategy.scheduler))
    }

    /// Emits `elements` on the strategy's scheduler, then completes.
    public static func of(_ elements: Element...) -> SharedSequence {
        SharedSequence(Observable.from(elements, scheduler: SharingStrategy.scheduler))
    }

    /// Emits the elements of `sequence` on the strategy's scheduler, then completes.
    public static func from<S: Sequence>(_ sequence: S) -> SharedSequence where S.Element == Element {
        SharedSequence(Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// Completes at once.
    public static func empty() -> SharedSequence {
        SharedSequence(Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// Never emits.
    public static func never() -> SharedSequence {
        SharedSequence(raw: .never())
    }

    /// Subscribes to the shared sequence `factory` returns, at each subscription.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func deferred(
        _ factory: @escaping () -> SharedSequence, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        SharedSequence(Observable.deferred({ factory().source }, isolation: isolation))
    }

    /// Merges `sources`; completes when all completed.
    public static func merge(_ sources: SharedSequence...) -> SharedSequence {
        SharedSequence(Observable.merge(sources.map(\.source)))
    }
}

extension SharedSequence where Element: FixedWidthInteger {
    /// Emits 0, 1, 2, … every `period` on the strategy's scheduler.
    public static func interval(_ period: Duration) -> SharedSequence {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Emits 0 after `dueTime`, then (with a `period`) 1, 2, … every `period`.
    public static func timer(_ dueTime: Duration, period: Duration? = nil) -> SharedSequence {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}

// MARK: Operators

extension SharedSequence {
    /// Transforms each element.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func map<Result>(
        _ transform: @escaping (Element) -> Result, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.map(transform, isolation: isolation))
    }

    /// Transforms each element, dropping `nil` results.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func compactMap<Result>(
        _ transform: @escaping (Element) -> Result?, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.compactMap(transform, isolation: isolation))
    }

    /// Keeps the elements for which `predicate` holds.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func filter(
        _ predicate: @escaping (Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.filter(predicate, isolation: isolation))
    }

    /// Drops elements whose key equals the previous element's key.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) -> Key, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.distinctUntilChanged(keySelector, isolation: isolation))
    }

    /// Drops elements that `comparer` says equal the previous one.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.distinctUntilChanged(comparer, isolation: isolation))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> SharedSequence {
        .init(source.distinctUntilChanged(at: keyPath))
    }

    /// Maps each element to a shared sequence and mirrors the latest one.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapLatest<Result>(
        _ selector: @escaping (Element) -> SharedSequence<SharingStrategy, Result>, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.flatMapLatest({ selector($0).source }, isolation: isolation))
    }

    /// Maps an element to a shared sequence only while none is active.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapFirst<Result>(
        _ selector: @escaping (Element) -> SharedSequence<SharingStrategy, Result>, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.flatMapFirst({ selector($0).source }, isolation: isolation))
    }

    /// Maps each element to a shared sequence and merges them all.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMap<Result>(
        _ selector: @escaping (Element) -> SharedSequence<SharingStrategy, Result>, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.flatMap({ selector($0).source }, isolation: isolation))
    }

    /// Emits `element` first, at subscription.
    public func startWith(_ element: Element) -> SharedSequence {
        .init(source.startWith(element))
    }

    /// Emits the running accumulation.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func scan<State>(
        _ seed: State, accumulator: @escaping (State, Element) -> State, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, State> {
        .init(source.scan(seed, accumulator: accumulator, isolation: isolation))
    }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> SharedSequence {
        .init(source.skip(count))
    }

    /// Emits an element, then drops those arriving within `dueTime`
    /// (``ObservableType/throttle(_:latest:scheduler:)`` on the strategy's
    /// scheduler).
    public func throttle(_ dueTime: Duration, latest: Bool = true) -> SharedSequence {
        .init(source.throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Emits an element only after `dueTime` without another one
    /// (``ObservableType/debounce(_:scheduler:)`` on the strategy's scheduler).
    public func debounce(_ dueTime: Duration) -> SharedSequence {
        .init(source.debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Shifts the elements and the completion later by `dueTime`.
    public func delay(_ dueTime: Duration) -> SharedSequence {
        .init(source.delay(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Combines each element with the latest element of `second`.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func withLatestFrom<Second, Result>(
        _ second: SharedSequence<SharingStrategy, Second>,
        resultSelector: @escaping (Element, Second) -> Result, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.withLatestFrom(second.source, resultSelector: resultSelector, isolation: isolation))
    }

    /// The latest element of `second` at each element of this sequence.
    public func withLatestFrom<Second>(
        _ second: SharedSequence<SharingStrategy, Second>
    ) -> SharedSequence<SharingStrategy, Second> {
        .init(source.withLatestFrom(second.source))
    }

    /// Runs side effects without changing the events.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, isolation: isolation))
    }

    /// Writes the events to ``DebugOutput`` (see ``ObservableType/debug(_:trimOutput:fileID:line:function:)``).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        fileID: String = #fileID, line: UInt = #line, function: String = #function
    ) -> SharedSequence {
        .init(source.debug(identifier, trimOutput: trimOutput, fileID: fileID, line: line, function: function))
    }

    /// Combines the latest elements of two shared sequences.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func combineLatest<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>,
        resultSelector: @escaping (E1, E2) -> Element, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(Observable.combineLatest(source1.source, source2.source, resultSelector: resultSelector, isolation: isolation))
    }

    /// Pairs up the elements of two shared sequences by index.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func zip<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>,
        resultSelector: @escaping (E1, E2) -> Element, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(Observable.zip(source1.source, source2.source, resultSelector: resultSelector, isolation: isolation))
    }
}

extension SharedSequence where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> SharedSequence {
        .init(source.distinctUntilChanged())
    }
}

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

// Sendable like the `Observable` it wraps.
extension SharedSequence: Sendable {}
