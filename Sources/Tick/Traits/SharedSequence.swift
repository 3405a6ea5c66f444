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

    /// This shared sequence itself.
    public func asSharedSequence() -> SharedSequence { self }
}

/// A type that converts to a ``SharedSequence`` of a given strategy:
/// ``Driver`` and ``Signal`` themselves (RxCocoa's
/// `SharedSequenceConvertibleType`; `ControlEvent` converts with
/// `asDriver()`/`asSignal()` instead).
public protocol SharedSequenceConvertibleType<Element>: ObservableType {
    /// The strategy of the shared sequence this converts to.
    associatedtype SharingStrategy: SharingStrategyProtocol
    /// This value as a shared sequence.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequence: SharedSequenceConvertibleType {}

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

extension ObservableType {
    /// This sequence as a shared sequence of strategy `S` (a ``Driver`` for
    /// ``DriverSharingStrategy``, a ``Signal`` for ``SignalSharingStrategy``):
    /// delivered on the strategy's scheduler, an error replaced by
    /// `onErrorJustReturn` followed by completion.
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorJustReturn: Element
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a shared sequence of strategy `S`, continuing with
    /// `onErrorDriveWith` on error.
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch({ _ in onErrorDriveWith.source }, isolation: nil))
    }

    /// This sequence as a shared sequence of strategy `S`, continuing with
    /// the one `onErrorRecover` returns for the error.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorRecover: @escaping (any Error) -> SharedSequence<S, Element>,
        isolation: (any Actor)? = #isolation
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch({ onErrorRecover($0).source }, isolation: isolation))
    }
}

extension Infallible {
    /// This infallible as a ``Driver``, delivered on ``SharingScheduler``.
    public func asDriver() -> Driver<Element> {
        Driver(source.observe(on: DriverSharingStrategy.scheduler))
    }

    /// This infallible as a ``Signal``, delivered on ``SharingScheduler``.
    public func asSignal() -> Signal<Element> {
        Signal(source.observe(on: SignalSharingStrategy.scheduler))
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

    /// Emits `optional`'s value, if it has one, on the strategy's scheduler,
    /// then completes.
    public static func from(optional: Element?) -> SharedSequence {
        SharedSequence(Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }

    /// Wraps `source` as a shared sequence without checking anything, as
    /// RxCocoa's `createUnsafe(source:)`: `source` must not fail, must deliver
    /// on the strategy's scheduler and is not shared again.
    public static func createUnsafe<Source: ObservableType>(source: Source) -> SharedSequence<SharingStrategy, Source.Element> {
        SharedSequence<SharingStrategy, Source.Element>(raw: source.asObservable())
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

// Sendable like the `Observable` it wraps.
extension SharedSequence: Sendable {}
