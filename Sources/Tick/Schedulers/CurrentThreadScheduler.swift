#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization

extension SchedulerInstant {
    /// The current time of the system's monotonic clock (the real schedulers' `now`).
    public static var monotonicNow: SchedulerInstant {
        SchedulerInstant(offset: .nanoseconds(Int64(bitPattern: DispatchTime.now().uptimeNanoseconds)))
    }
}

/// A trampoline on the current thread: work scheduled while it is running is
/// queued and runs after the current action, in (due time, order scheduled)
/// order, before the outermost `schedule` call returns.
///
/// Tick subscribes through this trampoline, as RxSwift does, so that a
/// synchronous source (`from`, `range`, `repeatElement`) only starts emitting
/// once the whole chain of subscriptions is wired: `repeatElement(1).take(3)`
/// stops, and `merge` of two synchronous sources interleaves them.
///
/// Past 128 subscriptions in progress on one
/// thread's stack, a further subscription is queued here too (ahead of other
/// queued work), so that subscribing a chain of any depth does not overflow
/// the stack (Docs/Operators.md, "Limits").
///
/// Delayed work **blocks the current thread** until it is due (the thread
/// sleeps); periodic work keeps the thread busy until it is disposed from inside
/// an action. Prefer ``DispatchQueueScheduler`` for real delays. Work due at
/// ``SchedulerInstant/distantFuture`` (a delay so long that `now + delay`
/// saturated) is "never": it is dropped without running instead of putting the
/// thread to sleep for good.
public final class CurrentThreadScheduler: Scheduler, @unchecked Sendable {
    /// The scheduler; its queue is per thread.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// `true` when no trampoline is running on this thread, so scheduled work
    /// would run at once.
    public static var isScheduleRequired: Bool { Trampoline.current == nil }

    public var now: SchedulerInstant { .monotonicNow }

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        enqueue(due: now, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        enqueue(due: now + checkedDelay(delay, "CurrentThreadScheduler.schedule(after:)"), action)
    }

    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        guard checkedPeriod(period, "CurrentThreadScheduler.schedulePeriodic") else { return Disposables.create() }
        let start = now + checkedDelay(delay, "CurrentThreadScheduler.schedulePeriodic")
        let periodic = SerialDisposable()
        var tick: (() -> Void)!
        var next = start
        tick = { [unowned self] in
            action()
            guard !periodic.isDisposed else { return }
            next += period
            periodic.disposable = self.enqueue(due: next, tick)
        }
        periodic.disposable = enqueue(due: start, tick)
        return Disposables.create(with: {
            periodic.dispose()
            tick = nil
        })
    }

    /// Runs `body` with a trampoline installed on this thread (creating one if
    /// there is none), then runs the work `body` queued, before returning.
    @usableFromInline
    static func trampolined<R>(_ body: () -> R) -> R {
        let trampoline = Trampoline.forThisThread
        if trampoline.isDraining { return body() }
        return trampoline.drain(after: body)
    }

    /// Past this many subscriptions nested on one thread's stack, a further
    /// subscription is queued on the trampoline (ahead of all other queued
    /// work) instead of being made at once, so that subscribing a deeply
    /// nested chain does not grow the stack without bound. It is still made
    /// before the outermost `subscribe` returns.
    @usableFromInline static var maximumNestedSubscriptions: Int { 128 }

    /// Subscribes through the trampoline: `run(observer)` at once, or queued
    /// when ``maximumNestedSubscriptions`` subscriptions are already in
    /// progress on this thread (the returned disposable then stands for the
    /// subscription until it is made; disposing it first cancels it).
    @usableFromInline
    static func subscribe<Element>(
        _ run: @escaping (AnyObserver<Element>) -> any Disposable, _ observer: AnyObserver<Element>
    ) -> any Disposable {
        Trampoline.withThisThread { trampoline in
            subscribe(run, observer, on: trampoline)
        }
    }

    @inline(__always)
    private static func subscribe<Element>(
        _ run: @escaping (AnyObserver<Element>) -> any Disposable, _ observer: AnyObserver<Element>,
        on trampoline: Trampoline
    ) -> any Disposable {
        guard trampoline.isDraining else { return trampoline.outermost(run, observer) }
        guard trampoline.subscriptionDepth >= maximumNestedSubscriptions &- 1 else {
            return trampoline.nested(run, observer)
        }
        if trampoline.subscriptionDepth == maximumNestedSubscriptions &- 1 {
            // This one brings the depth to the limit (`Trampoline.threadsAtTheLimit`).
            return Trampoline.atTheLimit { trampoline.nested(run, observer) }
        }
        let subscription = SingleAssignmentDisposable()
        trampoline.push(
            due: .distantPast,
            ScheduledAction {
                guard !subscription.isDisposed else { return }
                subscription.setDisposable(trampoline.nested(run, observer))
            })
        return subscription
    }

    /// `true` while no thread's trampoline is at
    /// ``maximumNestedSubscriptions`` (`Trampoline.threadsAtTheLimit` is
    /// zero): the condition of the shortcut described at
    /// ``subscribe(direct:_:)``. A thread always sees its own count.
    @inline(__always)
    static var noThreadIsAtTheNestingLimit: Bool { Trampoline.threadsAtTheLimit.load(ordering: .relaxed) == 0 }

    /// Subscribes a closure subscription's `sink` to a ``DirectSource``
    /// through the trampoline, exactly as ``subscribe(_:_:)`` subscribes an
    /// observer: at once (as the outermost subscription, or a nested one), or
    /// queued past ``maximumNestedSubscriptions``. (What
    /// `DirectSource.start(_:)` does, unless the source takes the shortcut
    /// below.)
    ///
    /// A source that only queues work on a scheduler that runs nothing
    /// while it schedules (a one-shot timer on a TickTesting
    /// `TestScheduler`: `OneShotTimerSource.start(_:)`) may be subscribed
    /// at once, without reading this thread's trampoline, while no
    /// thread is at the nesting limit (``noThreadIsAtTheNestingLimit``).
    /// That is what the trampoline would do: as the outermost subscription
    /// it would install itself, run the subscription, which queues nothing
    /// on it and runs no code that could see it, and find nothing to drain;
    /// as a nested one below the limit it would count the subscription in
    /// its depth, which nothing reads meanwhile. Only at the limit would it
    /// queue the subscription instead, which changes the order of the
    /// scheduled work, so this thread's depth decides then (one thread at
    /// the limit sends every thread's such subscriptions the long way; a
    /// thread always sees its own count). It saves the thread-specific
    /// slot's read and the trampoline's bookkeeping, about 60 instructions a
    /// timer (Docs/PerformanceHistory.md, "Timers (branch timers7,
    /// 2026-11-27)"; the check moved into the source's `start(_:)`, one
    /// virtual call instead of two and this generic function: "Timers
    /// (branch timers8, 2026-11-27)").
    @usableFromInline
    static func subscribe<Element>(direct source: DirectSource<Element>, _ sink: ClosureSink<Element>) -> any Disposable {
        Trampoline.withThisThread { trampoline in
            guard trampoline.isDraining else { return trampoline.outermost { source.subscribeDirect(sink) } }
            guard trampoline.subscriptionDepth >= maximumNestedSubscriptions &- 1 else {
                return trampoline.nested { source.subscribeDirect(sink) }
            }
            if trampoline.subscriptionDepth == maximumNestedSubscriptions &- 1 {
                return Trampoline.atTheLimit { trampoline.nested { source.subscribeDirect(sink) } }
            }
            let subscription = SingleAssignmentDisposable()
            trampoline.push(
                due: .distantPast,
                ScheduledAction {
                    guard !subscription.isDisposed else { return }
                    subscription.setDisposable(trampoline.nested { source.subscribeDirect(sink) })
                })
            return subscription
        }
    }

    private func enqueue(due: SchedulerInstant, _ action: @escaping () -> Void) -> any Disposable {
        let item = ScheduledAction(action)
        if let trampoline = Trampoline.current {
            trampoline.push(due: due, item)
            return item
        }
        let trampoline = Trampoline.forThisThread
        trampoline.push(due: due, item)
        trampoline.drain()
        return item
    }
}

/// The per-thread queue of the current-thread scheduler. Each thread has one,
/// made on first use, reused for every outermost `schedule`/`subscribe` (no
/// allocation per subscription) and released when the thread exits.
private final class Trampoline {
    // A trampoline is reachable only through its thread's thread-specific
    // slot, so only that thread ever touches these fields: no two accesses
    // can overlap, and the runtime exclusivity checks (a call into the
    // runtime for each access to `heap`) are turned off.
    @exclusivity(unchecked) private var heap = SchedulerHeap<ScheduledAction>()
    @exclusivity(unchecked) private var sequence: UInt64 = 0
    /// `true` while `drain` runs: work scheduled then is queued, not run at once.
    @exclusivity(unchecked) private(set) var isDraining = false
    /// Subscriptions in progress on this thread's stack (see
    /// `CurrentThreadScheduler.subscribe`).
    @exclusivity(unchecked) private(set) var subscriptionDepth = 0

    /// The threads whose trampoline's `subscriptionDepth` has reached
    /// `CurrentThreadScheduler.maximumNestedSubscriptions` (each counts
    /// once while it is there; relaxed: only a thread's own count decides
    /// anything for it, and it sees its own writes). Read by
    /// `CurrentThreadScheduler.noThreadIsAtTheNestingLimit`, the condition
    /// of a one-shot timer's shortcut (`OneShotTimerSource.start(_:)`).
    static let threadsAtTheLimit = Atomic<Int>(0)

    /// Makes a subscription, counting it as nested while it is made.
    func nested<Element>(
        _ run: (AnyObserver<Element>) -> any Disposable, _ observer: AnyObserver<Element>
    ) -> any Disposable {
        subscriptionDepth += 1
        defer { subscriptionDepth -= 1 }
        return run(observer)
    }

    /// Runs `body`, a nested subscription that brings this thread's depth
    /// to the limit (made where the depth is checked against it, so the
    /// usual path pays no comparison more), with this thread counted in
    /// `threadsAtTheLimit` meanwhile. Out of line: only deep chains get here.
    @inline(never)
    static func atTheLimit(_ body: () -> any Disposable) -> any Disposable {
        threadsAtTheLimit.wrappingAdd(1, ordering: .relaxed)
        defer { threadsAtTheLimit.wrappingSubtract(1, ordering: .relaxed) }
        return body()
    }

    /// Makes the outermost subscription on this thread: installs this
    /// trampoline, makes it, then runs the work it queued. What
    /// `drain(after: { nested(run, observer) })` does, written out: this is
    /// the path of every top-level `subscribe`, and the closures cost more
    /// than the work.
    @inline(__always)
    func outermost<Element>(
        _ run: (AnyObserver<Element>) -> any Disposable, _ observer: AnyObserver<Element>
    ) -> any Disposable {
        isDraining = true
        subscriptionDepth += 1
        let subscription = run(observer)
        subscriptionDepth -= 1
        // Usually nothing was queued (a subscription to a source that does
        // not emit synchronously): one check.
        if !heap.isEmpty { runQueued() }
        isDraining = false
        return subscription
    }

    /// `nested(_:_:)` for a subscription made by `body`.
    func nested(_ body: () -> any Disposable) -> any Disposable {
        subscriptionDepth += 1
        defer { subscriptionDepth -= 1 }
        return body()
    }

    /// `outermost(_:_:)` for a subscription made by `body`.
    @inline(__always)
    func outermost(_ body: () -> any Disposable) -> any Disposable {
        isDraining = true
        subscriptionDepth += 1
        let subscription = body()
        subscriptionDepth -= 1
        if !heap.isEmpty { runQueued() }
        isDraining = false
        return subscription
    }

    nonisolated(unsafe) private static var key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { Unmanaged<Trampoline>.fromOpaque($0).release() }
        #else
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<Trampoline>.fromOpaque(raw).release() }
        }
        #endif
        return key
    }()

    /// This thread's trampoline (made on first use).
    static var forThisThread: Trampoline {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<Trampoline>.fromOpaque(raw).takeUnretainedValue()
        }
        let trampoline = Trampoline()
        pthread_setspecific(key, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }

    /// Runs `body` with this thread's trampoline (made on first use), without
    /// retaining it: the thread-specific slot holds it for the thread's
    /// lifetime, and `body` runs on this thread.
    @inline(__always)
    static func withThisThread<R>(_ body: (Trampoline) -> R) -> R {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<Trampoline>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
        }
        return body(forThisThread)
    }

    /// This thread's trampoline while it is draining, otherwise `nil`.
    static var current: Trampoline? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let trampoline = Unmanaged<Trampoline>.fromOpaque(raw).takeUnretainedValue()
        return trampoline.isDraining ? trampoline : nil
    }

    func push(due: SchedulerInstant, _ item: ScheduledAction) {
        heap.push(.init(due: due.offset, sequence: sequence, payload: item))
        sequence &+= 1
    }

    /// Runs queued work until the queue is empty, with this trampoline installed
    /// as the thread's current one.
    func drain() {
        drain(after: {})
    }

    /// Installs this trampoline, runs `body`, then runs queued work until the
    /// queue is empty.
    func drain<R>(after body: () -> R) -> R {
        isDraining = true
        defer { isDraining = false }
        let result = body()
        // Usually nothing was queued (a subscription to a source that does
        // not emit synchronously): one check, no pop.
        if !heap.isEmpty { runQueued() }
        return result
    }

    /// Runs queued work until the queue is empty (the trampoline installed).
    private func runQueued() {
        while !heap.isEmpty, let entry = heap.popFirst() {
            // Due "never" (a saturated deadline): dropped, not slept on.
            if entry.due == SchedulerInstant.distantFuture.offset { continue }
            let wait = SchedulerInstant(offset: entry.due) - SchedulerInstant.monotonicNow
            if wait > .zero, !entry.payload.isDisposed {
                sleep(for: wait)
            }
            entry.payload.run()
        }
    }

    private func sleep(for duration: Duration) {
        // Whole seconds and nanoseconds (rounded up), without `components`,
        // which traps past Int64 seconds; longer sleeps are capped.
        let (seconds, attoseconds) = duration.totalAttoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
        let nanoseconds = (attoseconds + 999_999_999) / 1_000_000_000
        let carry: Int128 = nanoseconds == 1_000_000_000 ? 1 : 0
        var request = timespec(
            tv_sec: Int(clamping: seconds + carry), tv_nsec: Int(nanoseconds - carry * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
