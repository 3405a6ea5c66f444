import Tick

/// The latest error of some work, as an observable sequence of `Error?` that
/// can clear itself after a while (a rebuild of RxErrorTracker).
///
/// The sequence starts with `nil` and a new subscriber gets the current value
/// at once. Push errors with ``update(with:resetAfter:)`` (or its original
/// name ``onNext(_:resetTime:)``), or let ``ObservableType/trackError(_:resetTime:)``
/// push the errors of a sequence.
///
/// ## Rules
/// - Pushing a value cancels any pending reset, then makes it current and
///   emits it, except that `nil` while already `nil` is not emitted again.
///   Equal errors are *not* de-duplicated: every pushed error is emitted.
/// - With a reset time `r`, pushed at `t`: the tracker goes back to `nil` at
///   exactly `t + r`. So a new error restarts the reset window, and a new
///   error without a reset time cancels the pending reset and stays.
/// - **At the exact reset instant the reset comes first**: a value pushed at
///   exactly `t + r` is applied after the reset, so observers see `nil` and
///   then the new value, whatever order the scheduler would have run them in.
///   One frame earlier the reset has not happened (the new value replaces the
///   error, no `nil`); one frame later it has.
/// - A negative reset time is misuse: it is reported and treated as zero.
/// - Thread-safe: values may be pushed from any thread; observers receive
///   them one at a time, in the order they were applied, never while a lock
///   is held. (The original could leave its lock locked and deadlock.)
///
/// Reset timers run on the tracker's scheduler; nothing reads the wall clock.
public final class ErrorTracker: ObservableType, @unchecked Sendable {
    /// The tracked value: the current error, or `nil` when there is none.
    public typealias Element = (any Error)?

    private let scheduler: any Scheduler
    private let lock = Lock()
    // Guarded by `lock`:
    private var current: (any Error)?
    private var resetDue: SchedulerInstant?
    private var resetGeneration: UInt64 = 0
    private var timer: (any Disposable)?
    private let resetSignalSubscription = SerialDisposable()
    private let publisher = SerialPublisher<(any Error)?>(initial: nil)

    /// A tracker whose reset timers run on `scheduler` (the main queue by
    /// default, like the original).
    public init(scheduler: any Scheduler = MainScheduler.instance) {
        self.scheduler = scheduler
    }

    /// A tracker that also resets to `nil` on every element of `resetSignal`
    /// (for example "the user dismissed the banner" or "a retry started").
    /// The signal's errors and completion are ignored: it simply stops
    /// resetting. The signal is observed until this tracker is deinitialized.
    public convenience init<Signal: ObservableType>(
        resetSignal: Signal, scheduler: any Scheduler = MainScheduler.instance
    ) {
        self.init(scheduler: scheduler)
        resetSignalSubscription.disposable = resetSignal.subscribe(onNext: { [weak self] _ in
            self?.reset()
        })
    }

    deinit {
        timer?.dispose()
        resetSignalSubscription.dispose()
    }

    /// The current error, or `nil`.
    public var error: (any Error)? { lock.withLock { current } }

    /// Makes `error` current (see the type's rules) and, if `resetAfter` is
    /// given, schedules the return to `nil` exactly that long from now.
    public func update(with error: (any Error)?, resetAfter: Duration? = nil) {
        var resetAfter = resetAfter
        if let delay = resetAfter, delay < .zero {
            Misuse.report("ErrorTracker was given a negative reset time (\(delay)); it resets as if the time were zero.")
            resetAfter = .zero
        }
        let (generation, oldTimer): (UInt64, (any Disposable)?) = lock.withLock {
            let now = scheduler.now
            // The reset due now (or overdue) happens before this value.
            if let due = resetDue, due <= now { applyResetLocked() }
            resetGeneration &+= 1
            resetDue = resetAfter.map { now + $0 }
            if error != nil || current != nil {
                current = error
                publisher.enqueue(error)
            }
            defer { timer = nil }
            return (resetGeneration, timer)
        }
        oldTimer?.dispose()
        publisher.drain()
        guard let delay = resetAfter else { return }
        // Scheduled outside the lock (a scheduler may run work inline).
        let scheduled = scheduler.schedule(after: delay) { [weak self] in
            self?.resetTimerFired(generation: generation)
        }
        let keep: Bool = lock.withLock {
            guard generation == resetGeneration else { return false }
            timer = scheduled
            return true
        }
        if !keep { scheduled.dispose() }
    }

    /// The original's name for ``update(with:resetAfter:)``.
    public func onNext(_ error: (any Error)?, resetTime: Duration? = nil) {
        update(with: error, resetAfter: resetTime)
    }

    /// Goes back to `nil` now (cancelling any pending reset).
    public func reset() {
        update(with: nil)
    }

    private func resetTimerFired(generation: UInt64) {
        lock.withLock {
            guard generation == resetGeneration, resetDue != nil else { return }
            timer = nil
            applyResetLocked()
        }
        publisher.drain()
    }

    private func applyResetLocked() {
        resetDue = nil
        if current != nil {
            current = nil
            publisher.enqueue(nil)
        }
    }

    /// Subscribes `observer`: the current value at once, then every change.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        publisher.observable.subscribe(observer)
    }
}

// MARK: - Tracking async work

extension ErrorTracker {
    /// Runs `work` and reports its outcome, like
    /// ``ObservableType/trackError(_:resetTime:)`` does for a sequence: an
    /// error thrown by `work` is pushed with `resetAfter` (see
    /// ``update(with:resetAfter:)``) and **rethrown**; a result resets the
    /// tracker to `nil` (the work succeeds again) and is returned.
    ///
    /// ```swift
    /// let items = try await errors.track(resetAfter: .seconds(5)) { try await api.items() }
    /// ```
    ///
    /// A `CancellationError` is not an error to show: it is rethrown without
    /// being recorded. To record errors without rethrowing them, use
    /// ``track(resetAfter:orElse:isolation:_:)``.
    public func track<T>(
        resetAfter: Duration? = nil, isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async throws -> T {
        do {
            let result = try await work()
            reset()
            return result
        } catch {
            if !(error is CancellationError) { update(with: error, resetAfter: resetAfter) }
            throw error
        }
    }

    /// Runs `work` and reports its outcome like ``track(resetAfter:isolation:_:)``,
    /// but **swallows** the error: when `work` throws, the error is recorded
    /// and `fallback` is returned instead.
    ///
    /// ```swift
    /// let items = await errors.track(resetAfter: .seconds(5), orElse: []) { try await api.items() }
    /// ```
    ///
    /// A `CancellationError` is not recorded; the call returns `fallback`.
    public func track<T>(
        resetAfter: Duration? = nil, orElse fallback: @autoclosure () -> T,
        isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async -> T {
        do {
            return try await track(resetAfter: resetAfter, isolation: isolation, work)
        } catch {
            return fallback()
        }
    }
}

extension ObservableType {
    /// Reports this sequence's errors to `tracker`.
    ///
    /// Every element resets the tracker to `nil` (the work is succeeding
    /// again, whichever sequence caused the error); an error is pushed to the
    /// tracker with `resetTime` and then still forwarded downstream. Elements
    /// and completion are forwarded unchanged, after the tracker is updated.
    public func trackError(_ tracker: ErrorTracker, resetTime: Duration? = nil) -> Observable<Element> {
        self.do(
            onNext: { _ in tracker.reset() },
            onError: { error in tracker.update(with: error, resetAfter: resetTime) })
    }
}
