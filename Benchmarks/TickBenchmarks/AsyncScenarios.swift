import Dispatch
import Synchronization
import Tick
import TickTesting

/// Async scenarios on the virtual clock (issues 11 and 15).
enum AsyncScenarios {
    /// 7. N tasks each sleep a random duration (1 ms to 1 s, fixed seed) on
    /// `scheduler.virtualClock`, then `await scheduler.run()` wakes them all,
    /// letting each run to completion before the next wake-up (the async
    /// driver's quiescence). The time per operation is per sleep: scheduler
    /// creation, starting the task, the sleep, its wake-up and quiescence.
    ///
    /// The tasks run off the main actor (as a Swift Testing test's do), on the
    /// driver's serial queue, while this thread waits: callgrind's marker
    /// counts only this thread, so `Benchmarks/gate.sh` counts this scenario
    /// over the whole process instead (see there).
    static func virtualSleep(_ n: Int, repetitions: Int, name: String = "async_sleep") -> Measurement {
        var rng = SeededGenerator(seed: 0xA51C)
        let delays = (0..<n).map { _ in Duration.milliseconds(Int.random(in: 1...1000, using: &rng)) }
        return measure(name, operations: n, repetitions: repetitions, cpu: true, setup: { () }) { _ in
            runInTask {
                let scheduler = TestScheduler(stepBudget: .max)
                let clock = scheduler.virtualClock
                let woken = AtomicCounter()
                for delay in delays {
                    Task {
                        try? await clock.sleep(for: delay)
                        woken.value.add(1, ordering: .relaxed)
                    }
                }
                await scheduler.run()
                precondition(woken.value.load(ordering: .relaxed) == n, "every sleeper woke")
            }
        }
    }

    /// The scenario at 1k and 10k tasks: the cost per sleep must grow linearly
    /// (the ratio of the per-sleep costs stays near 1). Each size is followed
    /// by the runtime's floor for the same work (`floorVirtualSleep`) and
    /// Tick's ratio to it.
    static func scaling(repetitions: Int) -> [String] {
        let small = virtualSleep(1_000, repetitions: repetitions, name: "async_sleep/1000")
        let smallFloor = floorVirtualSleep(1_000, repetitions: repetitions, name: "floor_async_sleep/1000")
        let large = virtualSleep(10_000, repetitions: repetitions, name: "async_sleep/10000")
        let largeFloor = floorVirtualSleep(10_000, repetitions: repetitions, name: "floor_async_sleep/10000")
        let growth = large.nanosecondsPerOperation / small.nanosecondsPerOperation
        func ratio(_ tick: Measurement, _ floor: Measurement) -> String {
            format(tick.nanosecondsPerOperation / floor.nanosecondsPerOperation, 2)
        }
        return [
            small.line, smallFloor.line, large.line, largeFloor.line,
            "async_sleep: per-sleep cost 10k vs 1k = \(format(growth, 2))× (linear: ≈ 1×); "
                + "Tick / runtime floor = \(ratio(small, smallFloor))× at 1k, \(ratio(large, largeFloor))× at 10k",
        ]
    }

    /// The floor of scenario 8: the same work with nothing of Tick and the
    /// cheapest structure the Swift runtime allows. N tasks each suspend on
    /// a continuation until their due time (1 ms to 1 s, the same seed); the
    /// measuring thread then resumes them in (due time, creation) order and
    /// runs each to completion before the next. The tasks prefer a task
    /// executor that queues their jobs for the measuring thread, which runs
    /// them itself: no other thread, no dispatch queue, no lock contention,
    /// no hooks, no clock, no cancellation handler. What is left is the
    /// runtime's own cost: creating and destroying a task, its first job,
    /// the continuation, and the job that resumes it.
    static func floorVirtualSleep(_ n: Int, repetitions: Int, name: String = "floor_async_sleep") -> Measurement {
        var rng = SeededGenerator(seed: 0xA51C)
        let delays = (0..<n).map { _ in Int.random(in: 1...1000, using: &rng) }
        return measure(name, operations: n, repetitions: repetitions, cpu: true, setup: { () }) { _ in
            let executor = InlineTaskExecutor()
            let sleepers = Sleepers()
            let woken = AtomicCounter()
            for delay in delays {
                Task(executorPreference: executor) {
                    await withUnsafeContinuation { continuation in
                        sleepers.add(due: delay, continuation)
                    }
                    woken.value.add(1, ordering: .relaxed)
                }
            }
            executor.runAll()
            for continuation in sleepers.inDueOrder() {
                continuation.resume()
                executor.runAll()
            }
            precondition(woken.value.load(ordering: .relaxed) == n, "every sleeper woke")
        }
    }

    /// The floor's sleepers: continuations with their due times (whole
    /// milliseconds, 1 to 1000), in one list per due time, so that reading
    /// them in (due time, creation) order is a pass over the lists (no sort).
    final class Sleepers: Sendable {
        private let byDue = Mutex<[[UnsafeContinuation<Void, Never>]]>(Array(repeating: [], count: 1001))

        /// Called by the tasks in creation order (each runs to its
        /// suspension before the next starts).
        func add(due: Int, _ continuation: UnsafeContinuation<Void, Never>) {
            byDue.withLock { $0[due].append(continuation) }
        }

        func inDueOrder() -> [UnsafeContinuation<Void, Never>] {
            byDue.withLock { $0.flatMap { $0 } }
        }
    }

    /// A task executor whose jobs wait until the measuring thread runs them.
    final class InlineTaskExecutor: TaskExecutor, @unchecked Sendable {
        // @unchecked: `batch` is touched only by the measuring thread (in
        // `runAll`), and exchanged with `jobs` under its lock.
        private let jobs = Mutex<[UnownedJob]>([])
        /// The batch being run (swapped with `jobs`: neither is reallocated).
        private var batch: [UnownedJob] = []

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.append(job) }
        }

        /// Runs jobs, in the order they came, until none is left (only the
        /// measuring thread calls it).
        func runAll() {
            let executor = asUnownedTaskExecutor()
            while true {
                jobs.withLock { swap(&$0, &batch) }
                if batch.isEmpty { return }
                for job in batch { job.runSynchronously(on: executor) }
                batch.removeAll(keepingCapacity: true)
            }
        }
    }

    final class AtomicCounter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Runs `body` in a task off the main actor and waits for it.
    static func runInTask(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await body()
            done.signal()
        }
        done.wait()
    }
}
