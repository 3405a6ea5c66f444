import Dispatch
import Foundation
import Testing
import Tick
@testable import TickTesting

/// One scheduler per task (Docs/AsyncAwait.md, "One scheduler per task"):
/// misuse is a failure at the user's line, never a hang.
@Suite struct AsyncMisuseTests {
    /// The issue's case: a task sleeping on the first scheduler's clock, a
    /// second scheduler created in the same task, then the first one
    /// advanced. The task used to become the second scheduler's, so the
    /// sleeping task ran beside the first one's advance ("slept ... outside
    /// the scheduler's control") and `await task.value` hung. The task now
    /// stays with the scheduler whose async API it used.
    @Test func aSecondSchedulerCreatedInATaskLeavesItWithTheFirst() async throws {
        let first = TestScheduler()
        let clock = first.virtualClock
        let second = TestScheduler()
        let task = Task {
            try await clock.sleep(for: .milliseconds(10))
            return first.clock
        }
        await first.advance(by: .milliseconds(10))
        #expect(try await task.value == 10)
        #expect(first.pendingCount == 0)
        #expect(second.clock == 0)
    }

    /// Using the second scheduler's async API from that task is the misuse:
    /// reported at the call, naming the rule and the fix; the task stays
    /// with the first scheduler, and nothing hangs.
    @Test func usingASecondSchedulersAsyncAPIIsReported() async throws {
        let first = TestScheduler()
        let clock = first.virtualClock
        let second = TestScheduler()
        await withKnownIssue {
            await second.advance(by: .milliseconds(5))
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("This task already drives another TestScheduler (created at TickTestingTests/AsyncMisuseTests.swift:")
                    && $0.rawValue.contains("One scheduler per task")
                    && $0.rawValue.contains("Drive the second scheduler from a task of its own")
            }
        }
        #expect(second.clock == 5)
        let task = Task {
            try await clock.sleep(for: .milliseconds(10))
            return first.clock
        }
        await first.advance(by: .milliseconds(10))
        #expect(try await task.value == 10)
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
