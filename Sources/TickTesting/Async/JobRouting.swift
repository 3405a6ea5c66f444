#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization
import Tick
internal import TickRuntimeHooks

// How a TestScheduler sees the async work it drives (Docs/AsyncAwait.md,
// "How quiescence works").
//
// The Concurrency runtime lets a process see two kinds of jobs:
// - every job headed for the global concurrent executor (tasks without an
//   actor, default actors) passes through `swift_task_enqueueGlobal_hook`;
// - the main actor's executor is whatever `swift_task_getMainExecutor`
//   returns, and `swift_task_getMainExecutor_hook` can change it. (Since Swift
//   6.2 the runtime sends main-actor jobs straight to the main dispatch queue,
//   without `swift_task_enqueueMainExecutor_hook`, which Tick installs too for
//   the runtimes that still call it.) Tick makes it `RoutingMainExecutor`: an
//   executor that runs every job on the main dispatch queue, exactly like the
//   default one, but sees each job first.
// Tick installs these hooks once, when the process loads TickTesting (the C
// initializer in Sources/TickRuntimeHooks calls `installRuntimeHooksAtLoad`),
// so that every job of every test body has passed through them; where that
// initializer did not run, the first time a TestScheduler is created inside a
// task (`installation` is then first read there). For each job it asks: was
// it enqueued by work a
// TestScheduler drives? If so, the job goes to that scheduler's
// `AsyncDriver`, which runs it itself (so it knows when it ends); otherwise it
// goes on to the runtime's own executor (the main queue for main-actor jobs),
// untouched.
//
// A third way in: since Swift 6.2, `Task.yield()` enqueues its continuation
// on `Task.currentExecutor`, not through the global hook (the runtime's default
// executor then hands it to the global queue from another thread, where Tick
// could no longer tell whose it is). Where the runtime allows it, Tick's
// `DrivenTaskExecutor` is the process's default executor, installed at load
// (DefaultExecutor.swift), so such a job reaches Tick on the same thread
// while the driver runs its jobs with no task executor. Elsewhere the driver
// runs non-main jobs with `DrivenTaskExecutor` as their current task
// executor, to the same effect, at the price of executor switches (see
// `AsyncDriver.takeSwitch`).
//
// Every job Tick lets through (no driver takes it) is still run by Tick, on
// a queue like the runtime's for its priority, as wide as the cores
// (RuntimePool.swift), inside `track`: so Tick knows when each run of any job ends, which is how a driver
// holding the jobs of a test body knows the body suspended (see
// `AsyncDriver.registerCurrentTask`). Main-actor jobs and driven jobs are
// tracked the same way.
//
// A job belongs to a driver when
// - it is enqueued from inside a job that driver is running (a thread-local
//   says which driver's job the thread is running), or
// - it is enqueued by, or is, a "root" task of the driver: the task that
//   created the TestScheduler, or that used its async API (`virtualClock`,
//   an async `advance`/`run`, `expect(asyncSequence)`).
// The second rule is checked first (see `withDriver(for:_:)`). Both stop the moment
// the TestScheduler is deallocated; jobs a driver still holds then go to the
// runtime (`AsyncDriver.deinit`).

/// Installs Tick's hooks when the process loads TickTesting: called by the C
/// initializer in `Sources/TickRuntimeHooks` (before `main`, or when a test
/// bundle is loaded), never by Swift code. It runs before the Swift metadata
/// of this image may be registered, which `installation` does not need (it
/// looks up three variables and stores function pointers in them).
@_cdecl("tick_testing_install_runtime_hooks")
func installRuntimeHooksAtLoad() {
    JobRouting.loadInitializerRan.store(true, ordering: .relaxed)
    _ = JobRouting.installation
}

enum JobRouting {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
    typealias GetMainExecutor = @convention(thin) () -> UnownedSerialExecutor
    typealias GetMainExecutorHook = @convention(thin) (GetMainExecutor) -> UnownedSerialExecutor

    /// The hooks that were installed before Tick's (called for jobs Tick does
    /// not take), and whether Tick's hooks are in place.
    struct Installation: @unchecked Sendable {
        // @unchecked: thin function pointers, written once before the hooks
        // go live and read-only afterwards (a `static let`, so every reader
        // synchronizes with its initialization).
        let previousGlobal: Hook?
        let previousMain: Hook?
        let isActive: Bool
        /// The hooks went in from the load-time initializer, before any test
        /// code ran (otherwise lazily, from the first TestScheduler made in a
        /// task).
        let atLoad: Bool
        /// `DrivenTaskExecutor` is the process's default executor (see
        /// DefaultExecutor.swift): drivers run their jobs without a task
        /// executor, and `Task.yield()` still comes back to Tick.
        let isDefaultExecutor: Bool
        /// `TICK_ASYNC_HOOKS=off` was in the environment when the process
        /// loaded TickTesting: no hook went in (see `installation`).
        var switchedOff = false
    }

    /// `TICK_ASYNC_HOOKS=off` in the environment: Tick installs none of its
    /// Concurrency hooks, for the whole process (Docs/AsyncAwait.md,
    /// "Platforms"). Every job then runs exactly as without TickTesting;
    /// the async `advance`/`run` fail with a message naming the switch, and
    /// the synchronous API works as always.
    static var hooksSwitchedOff: Bool {
        guard let value = getenv("TICK_ASYNC_HOOKS") else { return false }
        return String(cString: value) == "off"
    }

    /// Set by `installRuntimeHooksAtLoad` before it installs the hooks (read
    /// on the same thread, in `installation`).
    static let loadInitializerRan = Atomic<Bool>(false)

    /// Installs the hooks (once per process): from the load-time initializer
    /// (`installRuntimeHooksAtLoad`), or else at the first read.
    static let installation: Installation = {
        let atLoad = loadInitializerRan.load(ordering: .relaxed)
        if hooksSwitchedOff {
            return Installation(
                previousGlobal: nil, previousMain: nil, isActive: false, atLoad: atLoad, isDefaultExecutor: false,
                switchedOff: true)
        }
        guard let handle = dlopen(nil, RTLD_NOW),
            let global = dlsym(handle, "swift_task_enqueueGlobal_hook"),
            let main = dlsym(handle, "swift_task_enqueueMainExecutor_hook"),
            let getMain = dlsym(handle, "swift_task_getMainExecutor_hook")
        else {
            return Installation(
                previousGlobal: nil, previousMain: nil, isActive: false, atLoad: atLoad, isDefaultExecutor: false)
        }
        let globalHook = global.assumingMemoryBound(to: Hook?.self)
        let mainHook = main.assumingMemoryBound(to: Hook?.self)
        let getMainHook = getMain.assumingMemoryBound(to: GetMainExecutorHook?.self)
        let (previousGlobal, previousMain) = (globalHook.pointee, mainHook.pointee)
        globalHook.pointee = { job, original in JobRouting.route(job, original, toMain: false) }
        mainHook.pointee = { job, original in JobRouting.route(job, original, toMain: true) }
        getMainHook.pointee = { _ in RoutingMainExecutor.reference }
        // The default executor only at load, before any other thread runs
        // (see DefaultExecutor.swift).
        let isDefaultExecutor = atLoad && installDefaultExecutor()
        return Installation(
            previousGlobal: previousGlobal, previousMain: previousMain, isActive: true, atLoad: atLoad,
            isDefaultExecutor: isDefaultExecutor)
    }()

    /// A main-actor job that reached `RoutingMainExecutor`.
    static func routeMain(_ job: UnownedJob) {
        let taken = withDriver(for: job) { driver in
            driver.enqueue(job, toMain: true, original: nil)
        }
        if !taken { RoutingMainExecutor.runOnMainQueue(job) }
    }

    private static func route(_ job: UnownedJob, _ original: Original, toMain: Bool) {
        let taken = withDriver(for: job) { driver in
            if toMain || !driver.takeSwitch(job) {
                driver.enqueue(job, toMain: toMain, original: original)
            }
        }
        if taken { return }
        let previous = toMain ? installation.previousMain : installation.previousGlobal
        if let previous {
            previous(job, original)
        } else if toMain {
            original(job)
        } else {
            runOnGlobalQueue(job)
        }
    }

    // MARK: Knowing when a job ends

    /// The current thread's `RunningJob` slot (a C thread-local, see
    /// TickRuntimeHooks.h): its own, made current at its first tracked job,
    /// or the drain's it is in.
    @inline(__always)
    static func threadSlot() -> UnsafeMutablePointer<RunningJob> {
        tick_running_job_slot()
    }

    /// One run of a job: a task is its own job each time it is resumed, so
    /// its address alone cannot tell one run from the next (the next can
    /// start on another thread before this one has returned). A C struct
    /// (`address`, `run`), so that the thread-local slot holds one.
    typealias RunningJob = tick_running_job

    /// The job run the current thread is in, if Tick started it (nil
    /// between runs, when the slot holds no run).
    static var runningJob: RunningJob? {
        guard let slot = tick_running_job_slot_if_any() else { return nil }
        let running = slot.pointee
        return running.run == 0 ? nil : running
    }

    /// Runs `job` with `body`, noting the run as the thread's; once it
    /// returns (the task suspended or ended), tells the drivers holding work
    /// until that run ends (see `AsyncDriver.registerCurrentTask`).
    ///
    /// The thread's slot gets the run, and then back what it held (`.none`,
    /// or the run of a job this one runs inside).
    @inline(__always)
    static func track(_ job: UnownedJob, _ body: (UnownedJob) -> Void) {
        let slot = threadSlot()
        let outer = slot.pointee
        let run = tick_next_job_run()
        slot.pointee = RunningJob(address: address(of: job), run: run)
        body(job)
        slot.pointee = outer
        if tick_held_runs_load() > 0 { holds.jobEnded(run) }
    }

    /// `track(_:_:)` for a driver's drain, whose thread-local points at
    /// `slot` for the whole drain (set and restored once, not per run):
    /// `slot` says which run the thread is in, and no job between runs.
    @inline(__always)
    static func track(_ job: UnownedJob, in slot: UnsafeMutablePointer<RunningJob>, _ body: (UnownedJob) -> Void) {
        let run = tick_next_job_run()
        slot.pointee = RunningJob(address: address(of: job), run: run)
        body(job)
        slot.pointee = RunningJob(address: 0, run: 0)
        if tick_held_runs_load() > 0 { holds.jobEnded(run) }
    }

    /// Runs `job` like the global concurrent executor would (on a queue
    /// like the runtime's for its priority, as wide as the cores: see
    /// RuntimePool.swift), tracked.
    @inline(__always)
    static func runOnGlobalQueue(_ job: UnownedJob) {
        RuntimePool.enqueue(job)
    }

    /// The dispatch quality of service of a job priority, as the runtime
    /// maps them.
    static func qualityOfService(_ priority: JobPriority) -> DispatchQoS.QoSClass {
        switch priority.rawValue {
        case 33...: .userInteractive
        case 25...: .userInitiated
        case 21...: .default
        case 17...: .utility
        case 1...: .background
        default: .default
        }
    }

    /// Drivers waiting for a job run to end.
    static let holds = Holds()

    final class Holds: @unchecked Sendable {
        // @unchecked: `waiting` is guarded by `lock`; its count is
        // published, under `lock`, in the atomic `tick_held_runs`
        // (TickRuntimeHooks.h), which every job run reads.
        private let lock = Lock()
        private var waiting: [UInt64: [(driver: Weak, generation: UInt64)]] = [:]

        final class Weak {
            weak var driver: AsyncDriver?
            init(_ driver: AsyncDriver) { self.driver = driver }
        }

        /// `driver` holds its jobs until the job run `run` ends.
        func add(run: UInt64, driver: AsyncDriver, generation: UInt64) {
            lock.withLock {
                waiting[run, default: []].append((Weak(driver), generation))
                tick_held_runs_store(Int64(waiting.count))
            }
        }

        func jobEnded(_ run: UInt64) {
            let ended = lock.withLock { () -> [(driver: Weak, generation: UInt64)]? in
                let ended = waiting.removeValue(forKey: run)
                tick_held_runs_store(Int64(waiting.count))
                return ended
            }
            // Out of the lock (a driver's release may start its drain).
            for (weak, generation) in ended ?? [] {
                weak.driver?.releaseHold(generation: generation, .jobEnded)
            }
        }
    }

    // MARK: Which driver a job belongs to

    /// The driver whose job the current thread is running, if any (alive or not).
    static var currentDriver: AsyncDriver? {
        guard let raw = tick_current_driver() else { return nil }
        return Unmanaged<AsyncDriver>.fromOpaque(raw).takeUnretainedValue()
    }

    /// `true` if the current thread is running a job of `driver` (compares
    /// addresses: no reference counting, which an `AsyncDriver`, referenced
    /// weakly, pays through its side table).
    @inline(__always)
    static func isCurrentDriver(_ driver: AsyncDriver) -> Bool {
        tick_current_driver() == Unmanaged.passUnretained(driver).toOpaque()
    }

    /// Calls `body` with the driver that owns `job` (see the comment at the
    /// top of this file); `false` if no driver does.
    ///
    /// A root wins over the thread's driver: with tests running in parallel,
    /// one test's task can end up running inside another scheduler's job
    /// (the test runner's own continuation was enqueued from there), and the
    /// work of the scheduler it created must still go to that scheduler.
    ///
    /// The thread's driver is used without retaining it: its drain, which
    /// set the thread-local, holds a reference until it returns.
    @inline(__always)
    static func withDriver(for job: UnownedJob, _ body: (AsyncDriver) -> Void) -> Bool {
        let current = tick_current_driver()
        let filter = Roots.filter
        if filter != 0 {
            let (task, job) = (currentTaskAddress, address(of: job))
            if filter & Roots.bit(job) != 0 || task.map({ filter & Roots.bit($0) != 0 }) == true {
                // Every root is the thread's driver's (one test running, the
                // usual case): whichever rule applies, the job is that
                // driver's, without the table. (`sole` is stored before
                // `filter`: this filter's sole driver or a later one.)
                if let current, Roots.sole == UInt(bitPattern: current) {
                    return Unmanaged<AsyncDriver>.fromOpaque(current)._withUnsafeGuaranteedRef { driver in
                        guard driver.isLive else { return false }
                        body(driver)
                        return true
                    }
                }
                if let driver = roots.driver(task: task, job: job) {
                    body(driver)
                    return true
                }
            }
        }
        guard let current else { return false }
        return Unmanaged<AsyncDriver>.fromOpaque(current)._withUnsafeGuaranteedRef { driver in
            guard driver.isLive else { return false }
            body(driver)
            return true
        }
    }

    /// The current task's address (a task is its own first job).
    ///
    /// Asked on every enqueue: `withUnsafeCurrentTask` is generic and not
    /// inlinable (about 230 instructions a call, a closure and metadata
    /// lookups), where the runtime's own entry point reads a thread-local.
    @inline(__always)
    static var currentTaskAddress: UInt? {
        guard let getCurrentTask else {
            return withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } }
        }
        let task = UInt(bitPattern: getCurrentTask())
        return task == 0 ? nil : task
    }

    typealias GetCurrentTask = @convention(thin) () -> UnsafeRawPointer?
    typealias IsCancelled = @convention(thin) (UnsafeRawPointer) -> Bool

    /// `Task.isCancelled`, without its generic `withUnsafeCurrentTask` (asked
    /// at every step of an async advance).
    static var currentTaskIsCancelled: Bool {
        guard let getCurrentTask, let isCancelled else { return Task.isCancelled }
        guard let task = getCurrentTask() else { return false }
        return isCancelled(task)
    }

    /// The runtime's `swift_task_isCancelled` (what `UnsafeCurrentTask`'s
    /// `isCancelled` calls, exported since Swift 5.5), looked up like the
    /// hooks.
    private static let isCancelled: IsCancelled? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_isCancelled") else {
            return nil
        }
        return unsafeBitCast(symbol, to: IsCancelled.self)
    }()

    /// The runtime's `swift_task_getCurrent` (exported with the Swift calling
    /// convention since Swift 5.5; `withUnsafeCurrentTask` calls it): the
    /// task running on this thread, unretained, or nil. Looked up like the
    /// hooks; only its address is ever used, never dereferenced.
    private static let getCurrentTask: GetCurrentTask? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_getCurrent") else {
            return nil
        }
        return unsafeBitCast(symbol, to: GetCurrentTask.self)
    }()

    static func address(of job: UnownedJob) -> UInt { unsafeBitCast(job, to: UInt.self) }

    /// A task is a reference-counted heap object: a root's driver holds one
    /// reference, so the address stays the root's as long as it is registered.
    static func retainTask(_ task: UInt) {
        guard let pointer = UnsafeRawPointer(bitPattern: task) else { return }
        _ = Unmanaged<AnyObject>.fromOpaque(pointer).retain()
    }

    static func releaseTask(_ task: UInt) {
        guard let pointer = UnsafeRawPointer(bitPattern: task) else { return }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }

    /// The root tasks of every live driver.
    static let roots = Roots()

    final class Roots: @unchecked Sendable {
        // @unchecked: `entries` is guarded by `lock`; the filter and the
        // sole driver are atomic C words (TickRuntimeHooks.h), written under
        // `lock` only.
        private let lock = Lock()
        /// Every root with its driver. A handful at most (one per test
        /// running), so a linear scan beats hashing.
        private var entries: [(task: UInt, driver: Weak)] = []
        /// One bit for every root's address (a one-hash Bloom filter,
        /// rewritten under `lock` whenever `entries` changes): a job, or a
        /// current task, whose bit is clear is no root, which every enqueue
        /// learns without the lock and the table. A root registers on its own
        /// thread before it enqueues anything, and is resumed only after it
        /// suspended, so no enqueue of a root can read the filter from before
        /// its registration.
        static var filter: UInt64 { tick_roots_filter_load() }
        /// The driver of every root, when they all have the same one (its
        /// `ObjectIdentifier`'s bits); else 0. Rewritten with `filter`.
        static var sole: UInt { tick_roots_sole_load() }

        @inline(__always)
        static func bit(_ address: UInt) -> UInt64 {
            // Fibonacci hashing: the top 6 bits of the address times 2⁶⁴/φ.
            1 &<< ((UInt64(address) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
        }

        /// Rewrites `sole` and `filter` from `entries` (under `lock`).
        private func refilter() {
            let first = entries.first?.driver.id
            let shared = entries.allSatisfy { $0.driver.id == first }
            tick_roots_sole_store(shared ? first.map { UInt(bitPattern: $0) } ?? 0 : 0)
            tick_roots_filter_store(entries.reduce(0) { $0 | Roots.bit($1.task) })
        }

        // Never let a strong reference loaded from `Weak.driver` be released
        // while `lock` is held: it may be the last one, and the driver's
        // deinit calls `remove`, which takes `lock` (a self-deadlock). So
        // `remove` compares identities, and the others return the reference
        // out of the lock.
        final class Weak {
            weak var driver: AsyncDriver?
            let id: ObjectIdentifier

            init(driver: AsyncDriver, id: ObjectIdentifier) {
                self.driver = driver
                self.id = id
            }
        }

        /// Makes `task` a root of `driver` (replacing any earlier driver).
        func add(task: UInt, driver: AsyncDriver) {
            let entry = Weak(driver: driver, id: ObjectIdentifier(driver))
            lock.withLock {
                if let index = entries.firstIndex(where: { $0.task == task }) {
                    entries[index].driver = entry
                } else {
                    entries.append((task, entry))
                }
                refilter()
            }
        }

        /// Forgets the roots of `driver` (called from its deinit).
        func remove(tasks: [UInt], of driver: AsyncDriver) {
            let id = ObjectIdentifier(driver)
            lock.withLock {
                entries.removeAll { tasks.contains($0.task) && $0.driver.id == id }
                refilter()
            }
        }

        /// The driver of the root `task`, or else of the root `job`.
        func driver(task: UInt?, job: UInt) -> AsyncDriver? {
            let (byTask, byJob) = lock.withLock { () -> (Weak?, Weak?) in
                var byTask: Weak?
                var byJob: Weak?
                for entry in entries {
                    if entry.task == task { byTask = entry.driver }
                    if entry.task == job { byJob = entry.driver }
                }
                return (byTask, byJob)
            }
            guard let found = byTask?.driver ?? byJob?.driver, found.isLive else { return nil }
            return found
        }

        func isRoot(task: UInt, of driver: AsyncDriver) -> Bool {
            let entry = lock.withLock { entries.first { $0.task == task }?.driver }
            return entry?.driver === driver
        }
    }

    /// The serial executor reference of "no particular executor" (the
    /// runtime's generic executor, which is what the global executor runs
    /// its jobs on): both words zero.
    /// (Computed, not stored: a stored static would call `swift_once` at
    /// every job run.)
    @inline(__always)
    static var genericExecutor: UnownedSerialExecutor { unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self) }
}

/// The process's default executor where the runtime allows Tick to choose it
/// (DefaultExecutor.swift), else the task executor current while a driver
/// runs a non-main job (see the top of this file): takes back the jobs
/// enqueued on "the current executor", and runs any other job like the
/// runtime's default executor (on a queue like the runtime's for its
/// priority, as wide as the cores: RuntimePool.swift).
final class DrivenTaskExecutor: TaskExecutor {
    static let shared = DrivenTaskExecutor()
    static let reference = shared.asUnownedTaskExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let taken = JobRouting.withDriver(for: job) { driver in
            driver.enqueue(job, toMain: false, original: nil)
        }
        if !taken { Self.runOnGlobalQueue(job) }
    }

    /// Runs `job` like the global concurrent executor would.
    static func runOnGlobalQueue(_ job: UnownedJob) {
        JobRouting.runOnGlobalQueue(job)
    }
}

/// The main actor's executor once Tick's hooks are installed (see the top of
/// this file): runs every job on the main dispatch queue, like the default
/// main executor, after letting `JobRouting` hand the jobs of driven work to
/// their `AsyncDriver` (which also runs them on the main queue).
final class RoutingMainExecutor: SerialExecutor {
    static let shared = RoutingMainExecutor()
    static let reference = UnownedSerialExecutor(ordinary: shared)

    func enqueue(_ job: consuming ExecutorJob) {
        JobRouting.routeMain(UnownedJob(job))
    }

    /// Runs `job` as a main-actor job, after everything already on the main queue.
    static func runOnMainQueue(_ job: UnownedJob) {
        DispatchQueue.main.async { JobRouting.track(job) { $0.runSynchronously(on: reference) } }
    }

    /// Main-actor code runs on the main queue: anything else is not isolated.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(.main))
    }
}

