import Testing
import Tick
@testable import TickTesting

/// Tick's task executor as the process's default executor, where the runtime
/// lets Tick choose it (Docs/AsyncAwait.md, "How quiescence works", item 2):
/// a driven task then calls into nonisolated async functions without
/// switching executors, and its yields still come back to the driver.
@Suite(.checksResourceLeaks) struct DefaultExecutorTests {
    @Test func ticksExecutorIsTheDefaultWhereTheRuntimeAllowsIt() {
        #if os(Linux) && compiler(>=6.3)
        #expect(JobRouting.installation.isDefaultExecutor)
        #else
        #expect(!JobRouting.installation.isDefaultExecutor)
        #endif
    }

    /// A hundred calls into a `@concurrent` function that never suspends:
    /// under the driver's task executor each entry and each return was a
    /// switch, a job of its own (two hundred); with Tick's executor as the
    /// default there is none, and the task runs in the one job that starts it.
    @Test func callsIntoConcurrentFunctionsAreNoJobs() async {
        let scheduler = TestScheduler()
        let calls = Locked(0)
        let task = Task {
            for _ in 0..<100 { await count(calls) }
        }
        await scheduler.run()
        await task.value
        #expect(calls.withLock { $0 } == 100)
        let jobs = scheduler.asyncDriver.jobsRun
        if JobRouting.installation.isDefaultExecutor {
            #expect(jobs < 10)
        } else {
            #expect(jobs >= 100)
        }
    }

    /// Every yield of a driven task is a job the driver runs (it reaches
    /// Tick through the default executor, not a task executor).
    @Test func yieldsComeBackToTheDriver() async {
        let scheduler = TestScheduler()
        let task = Task {
            for _ in 0..<50 { await Task.yield() }
        }
        await scheduler.run()
        await task.value
        #expect(scheduler.asyncDriver.jobsRun >= 50)
    }
}

@concurrent @inline(never) private func count(_ calls: Locked<Int>) async {
    calls.withLock { $0 += 1 }
}
