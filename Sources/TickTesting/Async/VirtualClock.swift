#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import Tick

extension TestScheduler {
    /// A `Clock` on this scheduler's virtual time, for code written against
    /// `any Clock<Duration>`: give it `ContinuousClock()` in production and
    /// `scheduler.virtualClock` in tests.
    ///
    /// Reading it also makes the current task one that the scheduler drives
    /// (see Docs/AsyncAwait.md): tasks it starts afterwards are part of the
    /// quiescence of the async `advance`/`run`.
    public var virtualClock: VirtualClock {
        asyncDriver.registerCurrentTask()
        return VirtualClock(scheduler: self)
    }

    /// A `Clock` whose time is a ``TestScheduler``'s virtual time.
    ///
    /// ## Rules
    /// - ``now`` is the scheduler's ``TestScheduler/now``: the same instants
    ///   as every Rx operator on the scheduler.
    /// - A sleep is an entry on the scheduler's heap, like any scheduled
    ///   action, due at its deadline and ordered with every other entry by
    ///   (due time, order of scheduling). When `advance`/`run` reaches it, the
    ///   sleeping task resumes, and (with an async `advance`/`run`) runs until
    ///   it waits again before the next entry runs.
    /// - A deadline at or before ``now`` returns at once, without suspending
    ///   and without waiting for the scheduler (there is nothing to wait for:
    ///   time never goes back). A task that is already cancelled throws
    ///   `CancellationError` instead, for any deadline.
    /// - Cancelling the sleeping task resumes it at once, in the canceller's
    ///   turn, with `CancellationError`, and removes the entry (it no longer
    ///   counts in ``TestScheduler/pendingCount``).
    /// - A pending sleep counts as a pending scheduled item for
    ///   `.checksResourceLeaks`. A sleeping task holds the clock, and so the
    ///   scheduler: the scheduler cannot go away under it. A test that ends
    ///   with a task still asleep keeps both alive (the leak check reports
    ///   the pending sleep); cancel the task or advance past its deadline.
    /// - Tolerance is ignored: virtual time is exact.
    public struct VirtualClock: Clock {
        /// Instants are the scheduler's instants.
        public typealias Instant = SchedulerInstant

        /// The scheduler whose time this clock reads.
        public let scheduler: TestScheduler

        /// The scheduler's current virtual time.
        public var now: SchedulerInstant { scheduler.now }

        /// Zero: virtual time is exact to the attosecond.
        public var minimumResolution: Duration { .zero }

        /// Suspends for `duration` of virtual time: `Clock.sleep(for:)`
        /// (`sleep(until: now + duration)`), in its caller's isolation like
        /// ``sleep(until:tolerance:)``. The standard library's version, which
        /// code written against `any Clock<Duration>` calls, is a nonisolated
        /// async function: on a task the scheduler drives, entering and
        /// leaving it switches executors (one job each, see Docs/AsyncAwait.md).
        nonisolated(nonsending) public func sleep(for duration: Duration, tolerance: Duration? = nil) async throws {
            try await sleep(until: now.advanced(by: duration), tolerance: tolerance)
        }

        /// Suspends until the scheduler's time reaches `deadline` (see the
        /// rules above). It runs in its caller's isolation
        /// (`nonisolated(nonsending)`): calling it switches no executor.
        nonisolated(nonsending) public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
            try Task.checkCancellation()
            let driver = scheduler.asyncDriver
            if driver.isActive && !driver.isDrivingCurrentContext && driver.reportEscapedSleep() {
                // A task of another TestScheduler: one scheduler per task.
                throw CancellationError()
            }
            guard deadline > scheduler.now else { return }
            let sleeper = Sleeper(driver: driver, deadline: deadline)
            guard let handlers = CancellationHandlers.runtime else {
                try await withTaskCancellationHandler {
                    try await withUnsafeThrowingContinuation { continuation in
                        sleeper.start(continuation, on: scheduler, until: deadline)
                    }
                } onCancel: {
                    sleeper.cancel()
                }
                return
            }
            // What withTaskCancellationHandler does, without its change of
            // executor on the way in and out (see `CancellationHandlers`).
            let onCancel: @Sendable () -> Void = { sleeper.cancel() }
            let record = handlers.add(onCancel)
            defer {
                if let record { handlers.remove(record) }
                withExtendedLifetime(onCancel) {}
            }
            try await withUnsafeThrowingContinuation(isolation: #isolation) { continuation in
                sleeper.start(continuation, on: scheduler, until: deadline)
            }
        }
    }
}

/// One pending virtual sleep: its continuation and its heap entry, resumed
/// exactly once (by the entry, by cancellation, or when released unresumed).
///
/// Its state is one atomic word rather than a lock (a lock is an object of
/// its own: an allocation and two lock round trips a sleep). The
/// continuation and the entry are written by `start` before it publishes
/// `sleeping` (a releasing exchange), and read only by whoever then moves the
/// state on from `sleeping` (an acquiring one), or by `start` itself.
final class Sleeper: @unchecked Sendable {
    // @unchecked: `continuation` and `entry` are published through `state`
    // as described above; `state` is atomic.
    private enum State {
        static let starting: UInt8 = 0
        static let sleeping: UInt8 = 1
        static let finished: UInt8 = 2
        /// Cancelled before `start` scheduled the wake-up: `start` throws.
        static let cancelledEarly: UInt8 = 3
        /// The entry ran before `start` published `sleeping` (another
        /// thread advanced the scheduler meanwhile): `start` resumes.
        static let wokenEarly: UInt8 = 4
    }

    private let state = Atomic<UInt8>(State.starting)
    @exclusivity(unchecked) private var continuation: UnsafeContinuation<Void, any Error>?
    @exclusivity(unchecked) private var entry: ScheduledEntry?

    /// The driver that lists this sleep while it sleeps (see
    /// `AsyncDriver.addSleeper`). Unowned: the sleeping task holds the clock,
    /// so the scheduler, so its driver, until the sleep is finished (and the
    /// driver's list holds this sleeper until then).
    unowned(unsafe) let driver: AsyncDriver
    /// When it wakes, and the task that sleeps (for the stuck-test report).
    let deadline: SchedulerInstant
    let task: UInt
    /// The driver's list of sleepers (guarded by the driver's lock).
    @exclusivity(unchecked) var next: Sleeper?
    @exclusivity(unchecked) unowned(unsafe) var previous: Sleeper?
    @exclusivity(unchecked) var isListed = false

    init(driver: AsyncDriver, deadline: SchedulerInstant) {
        self.driver = driver
        self.deadline = deadline
        self.task = JobRouting.currentTaskAddress ?? 0
    }

    /// Schedules the wake-up.
    func start(_ continuation: UnsafeContinuation<Void, any Error>, on scheduler: TestScheduler, until deadline: SchedulerInstant) {
        if state.load(ordering: .acquiring) == State.cancelledEarly {
            state.store(State.finished, ordering: .relaxed)
            continuation.resume(throwing: CancellationError())
            return
        }
        self.continuation = continuation
        // After a stall the scheduler drives nothing: a new sleep would never
        // be woken by an advance that no longer runs (see
        // `AsyncDriver.addSleeper`); it throws at once instead.
        guard driver.addSleeper(self) else {
            state.store(State.finished, ordering: .relaxed)
            continuation.resume(throwing: CancellationError())
            return
        }
        entry = scheduler.enqueue(due: deadline) { [self] in wake() }
        let (published, was) = state.compareExchange(
            expected: State.starting, desired: State.sleeping, ordering: .acquiringAndReleasing)
        if published { return }
        state.store(State.finished, ordering: .relaxed)
        driver.removeSleeper(self)
        if was == State.wokenEarly {
            continuation.resume()
        } else {
            // Cancelled while the wake-up was being scheduled.
            entry?.dispose()
            continuation.resume(throwing: CancellationError())
        }
    }

    private func wake() {
        if finish(orElseMarkStarting: State.wokenEarly) {
            driver.removeSleeper(self)
            continuation?.resume()
        }
    }

    func cancel() {
        if finish(orElseMarkStarting: State.cancelledEarly) {
            driver.removeSleeper(self)
            entry?.dispose()
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves `sleeping` to `finished` and returns `true` (the caller then
    /// resumes the continuation, which it alone may do); moves `starting` to
    /// `early` (for `start` to act on) and returns `false`; leaves any other
    /// state alone (someone else finished the sleep) and returns `false`.
    private func finish(orElseMarkStarting early: UInt8) -> Bool {
        var current = state.load(ordering: .acquiring)
        while current == State.sleeping || current == State.starting {
            let next = current == State.sleeping ? State.finished : early
            let (exchanged, was) = state.compareExchange(
                expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return current == State.sleeping }
            current = was
        }
        return false
    }

    deinit {
        // Released unresumed (the heap let go of its entry without running
        // or cancelling it): the task must not hang forever. A sleep holds
        // its scheduler (see `VirtualClock`'s rules), so this is a backstop.
        if state.load(ordering: .acquiring) == State.sleeping {
            continuation?.resume(throwing: CancellationError())
        }
    }
}

/// The runtime's entry points behind `withTaskCancellationHandler`
/// (`swift_task_addCancellationHandler` and
/// `swift_task_removeCancellationHandler`, exported since Swift 5.5 and
/// called from inlinable standard library code, so part of its ABI), looked
/// up like the hooks.
///
/// `withTaskCancellationHandler` is not inlinable and runs in the isolation
/// it is given: a call from a sleep on a driven task enters and leaves it
/// with two executor switches, and its operation closure two more (each a
/// job while the driver's task executor is current; see `JobRouting`).
/// `VirtualClock.sleep(until:)` registers its handler itself instead,
/// in its caller's isolation.
struct CancellationHandlers: @unchecked Sendable {
    // @unchecked: two thin function pointers, set once.
    typealias Add = @convention(thin) (() -> Void) -> UnsafeRawPointer?
    typealias Remove = @convention(thin) (UnsafeRawPointer) -> Void

    /// Adds `handler` to the current task's cancellation handlers; runs it
    /// at once if the task is already cancelled (and then may return nil:
    /// nothing to remove). The caller keeps `handler` alive until removed.
    let add: Add
    /// Removes a handler `add` returned, in the same task.
    let remove: Remove

    static let runtime: CancellationHandlers? = {
        guard let handle = dlopen(nil, RTLD_NOW),
            let add = dlsym(handle, "swift_task_addCancellationHandler"),
            let remove = dlsym(handle, "swift_task_removeCancellationHandler")
        else { return nil }
        return CancellationHandlers(add: unsafeBitCast(add, to: Add.self), remove: unsafeBitCast(remove, to: Remove.self))
    }()
}
