import Testing
import Tick
import TickTesting

/// The scenarios that swift-clocks checks for its `TestClock` (advance,
/// reentrant sleeps, run, cancellation, ordering across a task group, sleeping
/// until now), on `TestScheduler.virtualClock`. Where the original test waits
/// for a task to start with a `Task.yield()` loop or a real sleep, the async
/// `advance`/`run` already waits for it: none of these tests yields or sleeps.
@Suite(.checksResourceLeaks) struct TestClockScenarioTests {
    @Test func advanceWakesASleepAtItsDeadline() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let finished = Locked(false)
        Task {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
            finished.withLock { $0 = true }
        }
        await scheduler.advance(by: .milliseconds(999))
        #expect(!finished.withLock { $0 })
        await scheduler.advance(by: .milliseconds(1))
        #expect(finished.withLock { $0 })
    }

    @Test func oneAdvanceRunsEveryReentrantSleepDueWithinIt() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let task = Task {
            var count = 0
            for _ in 1...5 {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
                count += 1
            }
            return count
        }
        await scheduler.advance(by: .seconds(5))
        #expect(try await task.value == 5)
        #expect(scheduler.now == SchedulerInstant(offset: .seconds(5)))
    }

    @Test func oneFrameShortOfTheLastReentrantSleepLeavesItPending() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let count = Locked(0)
        let task = Task {
            for _ in 1...5 {
                try await clock.sleep(for: .seconds(1))
                count.withLock { $0 += 1 }
            }
        }
        await scheduler.advance(by: .seconds(5) - .milliseconds(1))
        #expect(count.withLock { $0 } == 4)
        #expect(scheduler.pendingCount == 1)
        await scheduler.advance(by: .milliseconds(1))
        #expect(count.withLock { $0 } == 5)
        _ = await task.result
    }

    @Test func runFinishesASleepStartedByAFreshTask() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let finished = Locked(false)
        Task {
            try await clock.sleep(for: .seconds(1))
            finished.withLock { $0 = true }
        }
        #expect(!finished.withLock { $0 })
        await scheduler.run()
        #expect(finished.withLock { $0 })
        #expect(scheduler.now == SchedulerInstant(offset: .seconds(1)))
    }

    @Test func runDrainsATimerStreamOfTenTicks() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let task = Task {
            // Made inside the task: released when it ends, which cancels the
            // producer (the stream's termination handler).
            let timer = AsyncStream<Void> { continuation in
                let producer = Task {
                    while !Task.isCancelled {
                        try await clock.sleep(for: .seconds(1))
                        continuation.yield()
                    }
                }
                continuation.onTermination = { _ in producer.cancel() }
            }
            var ticks = 0
            for await _ in timer.prefix(10) { ticks += 1 }
            return ticks
        }
        await scheduler.run()
        #expect(await task.value == 10)
        #expect(scheduler.now == SchedulerInstant(offset: .seconds(10)))
        #expect(scheduler.pendingCount == 0)
    }

    @Test func runFollowsReentrantSleepsToTheEnd() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let task = Task {
            var count = 0
            for _ in 1...5 {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
                count += 1
            }
            return count
        }
        await scheduler.run()
        #expect(try await task.value == 5)
        #expect(scheduler.now == SchedulerInstant(offset: .seconds(5)))
    }

    @Test func aPendingSleepIsVisibleUntilItsDeadline() async {
        // swift-clocks' `checkSuspension`: here, the pending count.
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        Task { try await clock.sleep(for: .seconds(1)) }
        await scheduler.advance(by: 0)
        #expect(scheduler.pendingCount == 1)
        await scheduler.advance(by: .seconds(1))
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsNeverFinishes() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let finished = Locked(false)
        let task = Task {
            try await clock.sleep(for: .seconds(1))
            finished.withLock { $0 = true }
        }
        task.cancel()
        await scheduler.run()
        #expect(!finished.withLock { $0 })
        #expect(scheduler.now == .origin)
        #expect(await task.result.isCancellation)
    }

    @Test func cancellingASleepingTaskRemovesItsEntry() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let task = Task { try await clock.sleep(for: .seconds(1)) }
        await scheduler.advance(by: 0)
        #expect(scheduler.pendingCount == 1)
        task.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(await task.result.isCancellation)
    }

    @Test func nowMovesExactlyByTheAdvance() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let task = Task { try await clock.sleep(for: .seconds(5)) }
        let start = clock.now
        await scheduler.advance(by: .seconds(5))
        #expect(clock.now == start.advanced(by: .seconds(5)))
        try await task.value
    }

    @Test func sleepsAcrossATaskGroupWakeInDeadlineOrderNotStartOrder() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let task = Task {
            try await withThrowingTaskGroup(of: Int.self, returning: [Int].self) { group in
                group.addTask {
                    try await clock.sleep(for: .seconds(2))
                    return 2
                }
                group.addTask {
                    try await clock.sleep(for: .seconds(1))
                    return 1
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        await scheduler.run()
        #expect(try await task.value == [1, 2])
    }

    @Test func sleepingUntilExactlyNowReturnsWithoutAnyoneAdvancing() async throws {
        let scheduler = TestScheduler(initialClock: 7)
        let clock = scheduler.virtualClock
        try await clock.sleep(until: clock.now)
        #expect(scheduler.clock == 7)
    }
}

extension Result {
    /// `true` if the result is a `CancellationError`.
    var isCancellation: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}
