import Dispatch
import Foundation
import Testing
import Tick
@testable import TickTesting

/// One scheduler per task (Docs/AsyncAwait.md, "One scheduler per task"):
/// misuse is a failure at the user's line, never a hang.
@Suite struct AsyncMisuseTests {
    /// The issue's case: a second scheduler created in a task, then a task
    /// started there sleeping on the first scheduler's clock while the first
    /// one advances. The task is the second scheduler's (one scheduler per
    /// task), so it ran beside the first one's advance: a generic "slept ...
    /// outside the scheduler's control" failure, then `await task.value`
    /// hung. Now the failure names the rule and the fix, and the sleep
    /// throws at once, so awaiting the task returns.
    @Test func aTaskOfTheSecondSchedulerSleepingOnTheFirstsClock() async {
        let first = TestScheduler()
        let clock = first.virtualClock
        let second = TestScheduler()
        await withKnownIssue {
            let task = Task {
                try await clock.sleep(for: .milliseconds(10))
                return first.clock
            }
            await first.advance(by: .milliseconds(10))
            await #expect(throws: CancellationError.self) { try await task.value }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("A task that another TestScheduler drives (created at TickTestingTests/AsyncMisuseTests.swift:")
                    && $0.rawValue.contains("One scheduler per task")
                    && $0.rawValue.contains("Drive the second scheduler from a task of its own")
            }
        }
        #expect(first.pendingCount == 0)
        #expect(second.pendingCount == 0)
    }

    /// Schedulers used one after the other in one task (the first still
    /// alive): each is driven in turn, with no report.
    @Test func schedulersUsedOneAfterTheOther() async throws {
        let first = TestScheduler()
        let firstClock = first.virtualClock
        let one = Task {
            try await firstClock.sleep(for: .milliseconds(10))
            return first.clock
        }
        await first.advance(by: .milliseconds(10))
        #expect(try await one.value == 10)
        let second = TestScheduler()
        let secondClock = second.virtualClock
        let two = Task {
            try await secondClock.sleep(for: .milliseconds(3))
            return second.clock
        }
        await second.advance(by: .milliseconds(3))
        #expect(try await two.value == 3)
    }

    /// The fix the message gives: the second scheduler in a task of its own.
    @Test func aSecondSchedulerInATaskOfItsOwn() async throws {
        let first = TestScheduler()
        let clock = first.virtualClock
        let task = Task {
            try await clock.sleep(for: .milliseconds(10))
            return first.clock
        }
        let fromTheSecond = try await Task {
            let second = TestScheduler()
            let clock = second.virtualClock
            let sleeper = Task {
                try await clock.sleep(for: .milliseconds(3))
                return second.clock
            }
            await second.advance(by: .milliseconds(3))
            return try await sleeper.value
        }.value
        #expect(fromTheSecond == 3)
        await first.advance(by: .milliseconds(10))
        #expect(try await task.value == 10)
    }
}
