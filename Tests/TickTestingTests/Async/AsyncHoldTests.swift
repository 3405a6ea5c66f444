import Dispatch
import Testing
import Tick
@testable import TickTesting

/// The jobs a test body starts before its first `await` are held until it
/// suspends (Docs/AsyncAwait.md, "How quiescence works", item 5). Tick's hooks
/// go in when the process loads TickTesting, so every test body runs in a job
/// Tick started, and the hold ends exactly when that job returns, whatever
/// the body awaits: no real time is involved. A body Tick cannot track is
/// reported, never raced silently.
@Suite(.checksResourceLeaks) struct AsyncHoldTests {
    /// Checked before this test makes anything of Tick's: were the hooks
    /// installed lazily again (by the first TestScheduler made in a task),
    /// `atLoad` would be false, and the body of the first test of the process
    /// (and of the tests running beside it) would run in a job Tick did not
    /// start.
    @Test func theHooksWentInWhenTheProcessLoadedTickTesting() {
        #expect(JobRouting.installation.isActive)
        #expect(JobRouting.installation.atLoad)
    }

    /// The body's very first job, before it creates a scheduler or awaits
    /// anything, is one Tick started.
    @Test func aBodysFirstJobIsTracked() async {
        #expect(JobRouting.runningJob != nil)
        #expect(JobRouting.runningJob?.address == JobRouting.currentTaskAddress)
    }

    @Test @MainActor func aMainActorBodysFirstJobIsTracked() async {
        #expect(JobRouting.runningJob != nil)
        #expect(JobRouting.runningJob?.address == JobRouting.currentTaskAddress)
    }

    @Test func workHeldForTheBodyStartsWhenItSuspendsOnSomethingElse() async {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let task = Task {
            log.withLock { $0.append("task") }
            return 7
        }
        log.withLock { $0.append("body") }
        // Not an await on the scheduler: the body suspends on the held task.
        #expect(await task.value == 7)
        #expect(log.withLock { $0 } == ["body", "task"])
        // The hold ended with the body's job.
        #expect(scheduler.asyncDriver.holdReleases == [.jobEnded])
    }

    @Test @MainActor func workHeldForAMainActorBodyStartsWhenItSuspendsOnSomethingElse() async {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let task = Task.detached {
            log.withLock { $0.append("task") }
            return 7
        }
        log.withLock { $0.append("body") }
        #expect(await task.value == 7)
        #expect(log.withLock { $0 } == ["body", "task"])
        #expect(scheduler.asyncDriver.holdReleases == [.jobEnded])
    }

    @Test func workHeldForTheBodyStartsWhenItAwaitsTheScheduler() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        let sleeper = Task { await nap(10, "woke", on: clock, timeline) }
        timeline.record("body")
        await scheduler.advance(by: .milliseconds(10))
        await sleeper.value
        #expect(timeline.entries == ["body@0", "woke@10"])
        #expect(scheduler.asyncDriver.holdReleases == [.awaited])
    }

    /// A task is its own job each time it is resumed: a hold waits for the
    /// end of one run of it, never of the next. (Keyed by the task's address,
    /// the end of the previous run, returning late on another thread, ended
    /// the hold a new scheduler had just made in the next run: the
    /// determinism stress test saw 2 timelines in 1,000 reordered.)
    @Test func twoRunsOfTheBodyAreTwoJobRuns() async throws {
        let first = try #require(JobRouting.runningJob)
        await MainActor.run {}
        let second = try #require(JobRouting.runningJob)
        #expect(first.address == second.address)
        #expect(first.run != second.run)
    }

    /// A body on an executor whose jobs never pass through Tick's hooks runs
    /// in a job Tick did not start, so Tick cannot see it suspend: the first
    /// job it starts ends the hold with a failure naming the cause (holding
    /// on would hang a body that awaits that job), and the work runs.
    @Test func aBodyOnACustomExecutorIsReportedNotRaced() async {
        let failures = await OnItsOwnQueue().startWorkBeforeAwaiting()
        #expect(failures.count == 1)
        #expect(failures.first?.contains("running where Tick cannot see when it suspends") == true)
    }
}

/// An actor whose jobs run on its own dispatch queue, never through Tick's
/// hooks (a custom serial executor).
actor OnItsOwnQueue {
    final class QueueExecutor: SerialExecutor {
        let queue = DispatchQueue(label: "AsyncHoldTests.OnItsOwnQueue")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedSerialExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    private let executor = QueueExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Creates a scheduler, starts a task and awaits it: returns the failures
    /// reported meanwhile.
    func startWorkBeforeAwaiting() async -> [String] {
        #expect(JobRouting.runningJob == nil)
        let scheduler = TestScheduler()
        let failures = Locked<[String]>([])
        let task = TestFailureReporter.withHandler({ failure in failures.withLock { $0.append(failure.message) } }) {
            Task.detached { 7 }
        }
        #expect(await task.value == 7)
        #expect(scheduler.asyncDriver.holdReleases == [.untracked])
        return failures.withLock { $0 }
    }
}
