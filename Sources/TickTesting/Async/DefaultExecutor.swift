#if os(Linux) && compiler(>=6.3)
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Tick's task executor as the process's default executor (Docs/AsyncAwait.md,
// "How quiescence works", item 2).
//
// Since Swift 6.2, `Task.yield()` enqueues its continuation on
// `Task.currentExecutor`: the current actor's executor, else the task's
// preferred task executor, else the thread's current task executor, else the
// default executor. A driver that runs its non-main jobs with
// `DrivenTaskExecutor` as the current task executor sees those yields, but
// the runtime then makes a task without a preferred executor switch
// (suspend and enqueue itself) at every entry into and return from a
// nonisolated async function: its preferred executor (none, which the
// runtime reads as the default executor) is not the current one.
//
// Where the runtime lets a process choose its default executor
// (`_createExecutors(factory:)`, Swift 6.3's experimental SPI), Tick makes
// `DrivenTaskExecutor` that executor, when the process loads TickTesting.
// The driver then runs its jobs with no task executor at all: no switches,
// and a yield still reaches Tick (through the default executor). For jobs no
// driver owns, `DrivenTaskExecutor` does what the runtime's default executor
// does on Linux: runs them on a concurrent queue of their priority as wide as
// the cores (RuntimePool.swift, which says why not on the runtime's own).
// Jobs enqueued for a deadline (a real `Task.sleep`, which asks the default
// executor for them since Swift 6.2) it hands to the runtime's own default
// executor, as before.
// The main executor stays the platform's (the runtime's own choice, which
// `_createExecutors` needs as well).
//
// Only at load: the runtime keeps the default executor in a plain global,
// read without synchronization by every thread that asks for it, so it may
// only be written before any other thread runs Swift concurrency code. The
// load-time initializer (Sources/TickRuntimeHooks) runs before `main`, when
// the process is still single-threaded (checked: a library loaded later, by
// `dlopen`, keeps the fallback below). Elsewhere (other platforms, older
// toolchains, a build where that initializer did not run) the driver keeps
// its task executor, with the switches it causes.

extension JobRouting {
    /// Makes `DrivenTaskExecutor` the process's default executor if this
    /// toolchain and platform allow it; `true` if it did. Called once, from
    /// the load-time initializer only (see the top of this file).
    static func installDefaultExecutor() -> Bool {
        #if os(Linux) && compiler(>=6.3)
        // The switch that keeps the path of the other platforms and
        // toolchains (Docs/AsyncAwait.md, "Platforms"), for a whole process.
        if defaultExecutorSwitchedOff { return false }
        // Deadlines go to the runtime's default executor (see
        // `DrivenTaskExecutor.enqueue(_:at:tolerance:clock:)`).
        guard DrivenTaskExecutor.platform != nil, isSingleThreaded() else { return false }
        _createExecutors(factory: TickExecutorFactory.self)
        return true
        #else
        return false
        #endif
    }
}

extension JobRouting {
    /// `TICK_DEFAULT_EXECUTOR=off` in the environment when the process loads
    /// TickTesting: Tick does not make its executor the default one, and
    /// drivers run their jobs under their own task executor, as on the
    /// platforms and toolchains without `_createExecutors` (macOS, iOS,
    /// Swift before 6.3). CI runs the async suites both ways.
    static var defaultExecutorSwitchedOff: Bool {
        guard let value = getenv("TICK_DEFAULT_EXECUTOR") else { return false }
        return String(cString: value) == "off"
    }
}

#if os(Linux) && compiler(>=6.3)
/// `true` if the process has one thread (`/proc/self/task` lists one): the
/// load-time initializer of an executable runs before `main`, with no other
/// thread; one of a library loaded later (`dlopen`) may not, and then no
/// other thread may be reading the default executor while it is written.
private func isSingleThreaded() -> Bool {
    guard let directory = opendir("/proc/self/task") else { return false }
    defer { closedir(directory) }
    var threads = 0
    while let entry = readdir(directory) {
        // The name's first byte, read in place: copying the 256-byte `d_name`
        // tuple out cost the compiler 0.5 s in every build (Docs/Performance.md,
        // "Build time").
        let isThread = withUnsafeBytes(of: &entry.pointee.d_name) { name in name.first.map { $0 != UInt8(ascii: ".") } ?? false }
        if isThread { threads += 1 }
    }
    return threads == 1
}

/// The executors `_createExecutors` installs: the platform's main executor
/// (unchanged), and Tick's default executor.
struct TickExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }
    static var defaultExecutor: any TaskExecutor { DrivenTaskExecutor.shared }
}

/// Jobs to run at a deadline go to the runtime's own default executor,
/// unchanged: Tick has no business with real time (and the runtime would
/// otherwise fall back to its C entry point for them, a different path).
extension DrivenTaskExecutor: SchedulingExecutor {
    /// The runtime's default executor on this platform, as a scheduling one.
    static let platform = PlatformExecutorFactory.defaultExecutor as? any SchedulingExecutor

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        if let platform = Self.platform {
            platform.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
        } else {
            // Not reached with Swift 6.3 on Linux, whose default executor
            // is a scheduling one (`installDefaultExecutor` checks it, and
            // installs nothing otherwise). Should it be, the job still runs,
            // early rather than never.
            JobRouting.runOnGlobalQueue(UnownedJob(job))
        }
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        if let platform = Self.platform {
            platform.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
        } else {
            enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
        }
    }
}
#endif
