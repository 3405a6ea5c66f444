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
        return measure(name, operations: n, repetitions: repetitions, setup: { () }) { _ in
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
    /// (the ratio of the per-sleep costs stays near 1).
    static func scaling(repetitions: Int) -> [String] {
        let small = virtualSleep(1_000, repetitions: repetitions, name: "async_sleep/1000")
        let large = virtualSleep(10_000, repetitions: repetitions, name: "async_sleep/10000")
        let growth = large.nanosecondsPerOperation / small.nanosecondsPerOperation
        return [small.line, large.line, "async_sleep: per-sleep cost 10k vs 1k = \(format(growth, 2))× (linear: ≈ 1×)"]
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
