import Testing
import Tick
@testable import TickTesting

/// A scheduler released while a task it drives still awaits it
/// (Docs/AsyncAwait.md, "What escapes"): a failure at the user's line, and
/// the awaiting iteration throws instead of waiting forever.
@Suite struct AsyncSchedulerReleasedTests {
    /// Iterates `iterator` (made by the test body, so the task holds neither
    /// the observable nor the scheduler) and returns the first element.
    static func first(of iterator: ObservableValues<Int>.Iterator) async throws -> Int? {
        var iterator = iterator
        return try await iterator.next()
    }

    /// The scheduler goes at the end of the `do` scope, with the timer still
    /// pending and a driven task waiting for its element: reported at the
    /// last advance, and the task's iteration throws.
    @Test func aValuesLoopOverATimerOnAReleasedScheduler() async {
        weak var released: TestScheduler?
        var task: Task<Int?, any Error>?
        await withKnownIssue {
            do {
                let scheduler = TestScheduler()
                released = scheduler
                let iterator = Unchecked(value: Observable<Int>.timer(.seconds(1), scheduler: scheduler).values.makeAsyncIterator())
                task = Task { try await Self.first(of: iterator.value) }
                await scheduler.advance(by: .milliseconds(1))
            }
            #expect(released == nil)
            let result = await task?.result
            #expect(throws: TestSchedulerReleasedError.self) { try result?.get() }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("A TestScheduler (created at TickTestingTests/AsyncSchedulerReleasedTests.swift:")
                    && $0.rawValue.contains("was released while a task it drove was still awaiting an observable's `values` (1 scheduled action went away with it")
                    && $0.rawValue.contains("Keep the scheduler until the task is done")
            } && issue.sourceLocation?.fileID == "TickTestingTests/AsyncSchedulerReleasedTests.swift"
        }
    }

    /// The same scheduler, released once the task got its element: nothing
    /// to report.
    @Test func aSchedulerReleasedAfterTheLoopEndedIsFine() async throws {
        var task: Task<Int?, any Error>?
        do {
            let scheduler = TestScheduler()
            let iterator = Unchecked(value: Observable<Int>.timer(.seconds(1), scheduler: scheduler).values.makeAsyncIterator())
            task = Task { try await Self.first(of: iterator.value) }
            await scheduler.advance(by: .seconds(1))
        }
        #expect(try await task?.value == 0)
    }

    /// The issue's case: the test lets go of its scheduler, but the task's
    /// loop keeps it alive (the loop holds the delayed observable, which
    /// holds its scheduler; a timer alone would not: a timer observable
    /// does not keep a test scheduler alive, see
    /// `TestSchedulerTimerOwnershipTests`), and nothing advances it. Tick cannot tell that from a
    /// test waiting for real work, so it is the stuck-test report (a
    /// warning after a second, at the scheduler's line), which names the
    /// waiting iteration; here the report's handler cancels the task, which
    /// the report resumes.
    @Test func aSchedulerLetGoWhileItsTaskLoopsOverADelayIsReportedStuck() async {
        let report = Locked("")
        let task: Task<Int, any Error>
        do {
            let scheduler = TestScheduler()  // the report points here
            let values = Observable.just(0).delay(.seconds(1), scheduler: scheduler).values
            task = Task {
                for try await value in values { return value }
                return -1
            }
            let cancel = Unchecked(value: task)
            scheduler.asyncDriver.onStuck = { text in
                report.withLock { $0 = text }
                cancel.value.cancel()
            }
            await scheduler.advance(by: .milliseconds(1))
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(report.withLock { $0 }.contains("AsyncSchedulerReleasedTests.swift:"))
        #expect(report.withLock { $0 }.contains("an iteration of an observable's `values` by a task the scheduler drives, waiting for an element"))
        #expect(report.withLock { $0 }.contains("1 scheduled action (Rx timers, schedule(...))"))
    }
}
