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
        // Unless switched off (TICK_DEFAULT_EXECUTOR=off: CI's second run).
        #expect(JobRouting.installation.isDefaultExecutor == !JobRouting.defaultExecutorSwitchedOff)
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

    /// A hundred tasks each sleeping once on the virtual clock: what the
    /// driver runs is the tasks' starts, their wake-ups and the advancing
    /// task's returns from quiescence, and no switch.
    @Test func aSleepIsNoSwitch() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let woken = Locked(0)
        let tasks = (1...100).map { milliseconds in
            Task {
                try? await clock.sleep(for: .milliseconds(milliseconds))
                woken.withLock { $0 += 1 }
            }
        }
        await scheduler.run()
        for task in tasks { await task.value }
        #expect(woken.withLock { $0 } == 100)
        let jobs = scheduler.asyncDriver.jobsRun
        // Three jobs a sleep (301 measured); under the driver's task
        // executor, eight (five of them switches).
        if JobRouting.installation.isDefaultExecutor {
            #expect(jobs <= 305)
        } else {
            #expect(jobs >= 500)
        }
    }

    /// `globalConcurrentExecutor` is the default executor, so where Tick's
    /// executor is the default, a task that prefers it sends its jobs to Tick:
    /// it is driven like any other task the test starts.
    @Test(.enabled(if: JobRouting.installation.isDefaultExecutor))
    func aTaskPreferringTheGlobalConcurrentExecutorIsDriven() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        let task = Task(executorPreference: globalConcurrentExecutor) {
            await nap(10, "woke", on: clock, timeline)
        }
        await scheduler.advance(to: 9)
        #expect(timeline.entries == [])
        await scheduler.advance(to: 10)
        #expect(timeline.entries == ["woke@10"])
        await task.value
    }

    /// Every yield of a driven task is a job the driver runs (it reaches
    /// Tick through the default executor, not a task executor).
    @Test func yieldsComeBackToTheDriver() async {
        let scheduler = TestScheduler()
        let task = Task {
            // The yields are the code under test, not a wait: each must come
            // back to the driver as a job it runs.
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
