import Dispatch
import Testing
import Tick
@testable import TickTesting

/// A job that never ends (blocked on a semaphore) stops the advance with a
/// failure after `asyncStallLimit`; from then on every use of the
/// scheduler's async API fails at once with the stall's message, and no
/// virtual sleep is left to hang the test (Docs/AsyncAwait.md, "What Tick
/// reports"). Each test blocks one job for the stall limit (0.3 s of real
/// time): the diagnostic is real time by design.
@Suite struct AsyncStallTests {
    static func isStall(_ issue: Issue) -> Bool {
        issue.comments.contains { $0.rawValue.contains("has not finished for 300ms of real time") }
    }

    @Test func aStallFailsTheAdvanceThenEveryUseFailsAtOnceAndNoSleepHangs() async {
        let scheduler = TestScheduler()
        scheduler.asyncStallLimit = .milliseconds(300)
        let clock = scheduler.virtualClock
        let gate = DispatchSemaphore(value: 0)
        let sleeper = Task { () -> String in
            do {
                try await clock.sleep(for: .seconds(1))
                return "woke"
            } catch {
                return "threw \(type(of: error))"
            }
        }
        // The code under test: a job that blocks until the test lets it go.
        let blocker = Task { gate.wait() }
        await withKnownIssue {
            await scheduler.advance(by: .milliseconds(10))
        } matching: { Self.isStall($0) }
        gate.signal()
        await blocker.value
        // The pending sleep threw: awaiting its task returns.
        #expect(await sleeper.value == "threw CancellationError")
        #expect(scheduler.pendingCount == 0)

        // Any later use fails at once with the stall's message, and runs nothing.
        await withKnownIssue {
            await scheduler.advance(by: .seconds(5))
        } matching: { issue in
            Self.isStall(issue) && issue.comments.contains { $0.rawValue.contains("no longer advances; nothing was run") }
        }
        await withKnownIssue {
            await scheduler.run()
        } matching: { Self.isStall($0) }
        #expect(scheduler.clock == 0)

        // A new sleep throws at once (reported once per scheduler).
        await withKnownIssue {
            let late = Task { () -> String in
                do {
                    try await clock.sleep(for: .seconds(1))
                    return "woke"
                } catch {
                    return "threw \(type(of: error))"
                }
            }
            #expect(await late.value == "threw CancellationError")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("slept on TestScheduler.virtualClock after the scheduler stopped driving") }
        }

        // The synchronous API keeps working.
        let log = scheduler.createObserver(Int.self)
        _ = Observable.just(1).delay(.milliseconds(5), scheduler: scheduler).subscribe(log)
        advanceSynchronously(scheduler, by: .milliseconds(5))
        #expect(log.events == [.next(5, 1), .completed(5)])
    }

    /// The advance that meets the stuck job is itself still stepping into the
    /// driver (its visit is queued behind the job): the stall is detected all
    /// the same (it was not, and the test hung).
    @Test func aStallBeforeTheFirstAdvanceGetsIntoTheDriver() async {
        let scheduler = TestScheduler()
        scheduler.asyncStallLimit = .milliseconds(300)
        let gate = DispatchSemaphore(value: 0)
        let blocker = Task { gate.wait() }
        await withKnownIssue {
            await scheduler.run()
        } matching: { Self.isStall($0) }
        gate.signal()
        await blocker.value
    }
}

/// The synchronous `advance(by:)`, from an async test.
private func advanceSynchronously(_ scheduler: TestScheduler, by duration: Duration) {
    scheduler.advance(by: duration)
}
