import Dispatch
internal import TickRuntimeHooks
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Where the jobs no TestScheduler owns run (Docs/AsyncAwait.md, "Invisible
// to other tests").
//
// Tick runs every job that passes through its hooks itself, inside
// `JobRouting.track`, so that it knows when each run ends (how a driver
// holding the jobs of a test body learns that the body suspended). So it
// cannot hand a job it lets through to the runtime's own executor: it must
// put it on a dispatch queue with a function of its own. Which queue decides
// how many such jobs run at once, and that must be what it is without Tick:
// a test binary links every test target together, so whatever Tick does
// here, every async test of the binary gets.
//
// The runtime's global executor (DispatchGlobalExecutor.cpp in the Swift
// runtime) puts a job on a queue chosen by the job's priority:
// - Linux and the other non-Apple platforms: a concurrent queue of its own
//   for each priority, created with that priority as its quality of service
//   and then narrowed with `dispatch_queue_set_width(queue, -3)`
//   (DISPATCH_QUEUE_WIDTH_MAX_LOGICAL_CPUS): at most as many of its jobs run
//   at once as there are cores, however long they block;
// - Apple platforms: the cooperative global queue of that priority
//   (`dispatch_get_global_queue(priority, 4)`), as wide as the cores too,
//   fed through a private entry point for Swift jobs
//   (`dispatch_async_swift_job`), which runs the job itself, so Tick could
//   not see it end.
// A plain global queue (`DispatchQueue.global(qos:)`, what Tick used before)
// adds threads when its jobs block: a test whose tasks block each other
// passed under Tick and starved without it.
//
// `RuntimePool` makes the Linux queues, the same way, on every platform (on
// Apple platforms: the same width as the runtime's pool, not its queue;
// not verified here, Docs/AsyncAwait.md, "Platforms"), and runs each job with
// `dispatch_async_f` and the job itself as the context (no closure, no
// allocation, like the runtime). The queues are Tick's own (the runtime's are
// not reachable), so they are a second pool beside the runtime's, each as
// wide as the cores, for the few jobs the runtime still runs itself: those
// resumed at a real-time deadline (`Task.sleep`), which Tick hands on
// untouched, and, where Tick's executor is not the default one (other
// platforms, `TICK_DEFAULT_EXECUTOR=off`), those enqueued on the default
// executor directly (the yield of a task no scheduler drives).
//
// The dispatch functions are looked up once with `dlsym`: the runtime uses
// two that Dispatch's Swift API does not offer (`dispatch_queue_set_width`,
// `dispatch_async_f` with a C function).

/// The queues Tick runs undriven jobs on: the runtime's own kind.
enum RuntimePool {
    typealias Work = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias AsyncF = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer?, Work) -> Void

    /// One more than the highest job priority (`JobPriority.userInteractive`,
    /// 0x21), as the runtime's queue cache.
    static let priorities = 0x22

    /// The queues, made at the first job and published in the C word
    /// `tick_runtime_pool` (TickRuntimeHooks.h), which every later enqueue
    /// reads instead of this static (whose every read calls `swift_once`);
    /// nil if the dispatch functions are missing (then `enqueue` falls back
    /// on a global queue).
    // nonisolated(unsafe): the pointee is written once, by this initializer,
    // before the pointer is visible to anyone; read-only after.
    nonisolated(unsafe) static let setup: UnsafePointer<tick_pool>? = {
        guard let handle = dlopen(nil, RTLD_NOW), let asyncF = dlsym(handle, "dispatch_async_f") else { return nil }
        var made: [UnsafeMutableRawPointer] = []
        for priority in 0..<priorities {
            guard let queue = makeQueue(priority: UInt32(priority), handle) else { return nil }
            made.append(UnsafeMutableRawPointer(queue))
        }
        // Never freed: pointers, so that no enqueue retains an array.
        let queues = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: priorities)
        queues.initialize(from: made, count: priorities)
        let pool = UnsafeMutablePointer<tick_pool>.allocate(capacity: 1)
        pool.initialize(to: tick_pool(async_f: unsafeBitCast(asyncF, to: AsyncF.self), queues: queues))
        return UnsafePointer(pool)
    }()

    /// A queue like the runtime's for `priority` (see the top of this file).
    private static func makeQueue(priority: UInt32, _ handle: UnsafeMutableRawPointer) -> OpaquePointer? {
        typealias MakeAttribute = @convention(c) (OpaquePointer?, UInt32, Int32) -> OpaquePointer?
        typealias CreateQueue = @convention(c) (UnsafePointer<CChar>?, OpaquePointer?) -> OpaquePointer?
        typealias SetWidth = @convention(c) (OpaquePointer, Int) -> Void
        guard let concurrent = dlsym(handle, "_dispatch_queue_attr_concurrent"),
            let makeAttribute = dlsym(handle, "dispatch_queue_attr_make_with_qos_class"),
            let create = dlsym(handle, "dispatch_queue_create"),
            let setWidth = dlsym(handle, "dispatch_queue_set_width")
        else { return nil }
        // DISPATCH_QUEUE_CONCURRENT is the address of this object.
        let attribute = unsafeBitCast(makeAttribute, to: MakeAttribute.self)(OpaquePointer(concurrent), priority, 0)
        guard let queue = unsafeBitCast(create, to: CreateQueue.self)("Tick: Swift global concurrent queue", attribute)
        else { return nil }
        // DISPATCH_QUEUE_WIDTH_MAX_LOGICAL_CPUS, as the runtime.
        unsafeBitCast(setWidth, to: SetWidth.self)(queue, -3)
        return queue
    }

    /// Runs `job` on the queue of its priority, tracked (`JobRouting.track`).
    @inline(__always)
    static func enqueue(_ job: UnownedJob) {
        guard let pool = tick_runtime_pool_load() ?? published() else {
            fallback(job)
            return
        }
        let priority = min(Int(job.priority.rawValue), priorities - 1)
        pool.pointee.async_f(pool.pointee.queues[priority], unsafeBitCast(job, to: UnsafeMutableRawPointer.self), runJob)
    }

    /// The pool, made (once: `setup`) and published for the next enqueues.
    private static func published() -> UnsafePointer<tick_pool>? {
        guard let setup else { return nil }
        tick_runtime_pool_store(setup)
        return setup
    }

    /// Not reached where Dispatch is libdispatch (every platform Tick
    /// supports): the jobs still run, on a global queue.
    private static func fallback(_ job: UnownedJob) {
        DispatchQueue.global(qos: JobRouting.qualityOfService(job.priority)).async {
            JobRouting.track(job) { $0.runSynchronously(on: JobRouting.genericExecutor) }
        }
    }
}

/// The function each pool job runs with (its context is the job).
private let runJob: RuntimePool.Work = { context in
    guard let context else { return }
    JobRouting.track(unsafeBitCast(context, to: UnownedJob.self)) { $0.runSynchronously(on: JobRouting.genericExecutor) }
}
