import Testing
import Tick
@testable import TickTesting

/// The jobs a test body starts before its first `await` are held until it
/// suspends (Docs/AsyncAwait.md, "How quiescence works", item 5). When the
/// body runs in a job Tick started, the hold ends exactly when that job
/// returns, whatever the body awaits: no real time is involved.
@Suite(.checksResourceLeaks) struct AsyncHoldTests {
    @Test func workHeldForTheBodyStartsWhenItSuspendsOnSomethingElse() async throws {
        try await resumeInAJobTickStarted()
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
        // The hold ended with the body's job, not after the real-time fallback.
        #expect(scheduler.asyncDriver.holdReleases == [.jobEnded])
    }

    @Test func workHeldForTheBodyStartsWhenItAwaitsTheScheduler() async throws {
        try await resumeInAJobTickStarted()
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
        try await resumeInAJobTickStarted()
        let first = try #require(JobRouting.runningJob)
        await MainActor.run {}
        let second = try #require(JobRouting.runningJob)
        #expect(first.address == second.address)
        #expect(first.run != second.run)
    }

    /// A body that started the job it runs in before Tick's hooks were
    /// installed is not tracked; it still works (the fallback releases what
    /// it holds), which the rest of the suite shows. Here: a tracked body's
    /// job is the one Tick names as running.
    @Test func aBodyResumedThroughTheHooksRunsInATrackedJob() async throws {
        try await resumeInAJobTickStarted()
        #expect(JobRouting.runningJob?.address == JobRouting.currentTaskAddress)
    }
}

/// Makes the rest of the calling test body run in a job that Tick started:
/// creates (and lets go of) a TestScheduler, which installs Tick's hooks, then
/// hops to the main actor and back, so the body's next job passes through the
/// hooks.
func resumeInAJobTickStarted() async throws {
    do { _ = TestScheduler() }
    await MainActor.run {}
    try #require(JobRouting.runningJob != nil && JobRouting.runningJob?.address == JobRouting.currentTaskAddress)
}
