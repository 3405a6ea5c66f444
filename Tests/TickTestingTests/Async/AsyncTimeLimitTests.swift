import Foundation
import Testing
import Tick
@testable import TickTesting

/// Swift Testing's `.timeLimit` stops a runaway async advance (issue 22;
/// Docs/AsyncAwait.md, "Cancelling an advance"). The trait's shortest limit is
/// one minute and it works by cancelling the test's task, so the test that
/// exceeds it runs in a child process (this test binary, filtered to the
/// child test below), and this test reads what the child printed: the
/// limit's issue, and the advance returning, with the clock short of its
/// target, once the test's task was cancelled. The child takes a minute of
/// real time by design (the limit is the thing under test); it runs beside
/// the other tests.
@Suite struct AsyncTimeLimitTests {
    static let childVariable = "TICK_FIXTURE_TIME_LIMIT"
    /// The advance the child asks for: far more 1 ms steps than a minute runs.
    static let target = TestTime(1_000_000_000_000)

    #if os(Linux)
    @Test func aTimeLimitStopsARunawayAdvance() async throws {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let child = try await AsyncInvisibilityTests.run(
            binary,
            ["--testing-library", "swift-testing", "--filter", "AsyncTimeLimitTests/runawayAdvanceChild"],
            environment: [Self.childVariable: "1"])
        let output = child.output
        #expect(child.status != 0, "exceeding the limit fails the child's test: \(output)")
        #expect(output.contains("advance starts"), "\(output)")
        #expect(output.contains("Time limit was exceeded"), "\(output)")
        // "advance returned at N, cancelled true, N ticks"
        let line = output.split(separator: "\n").first { $0.hasPrefix("advance returned at ") }
        let numbers = line.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
        try #require(numbers.count == 2, "the advance returned: \(output)")
        #expect(line?.contains("cancelled true") == true, "\(output)")
        let (clock, ticks) = (numbers[0], numbers[1])
        // It ran (a minute of steps), stopped well short of its target, and
        // its clock is that of the last step it ran: the ticker's sleeps were
        // due every frame, so the clock counts them.
        #expect(clock > 1_000, "\(output)")
        #expect(clock < Self.target.frames, "\(output)")
        #expect(ticks == clock || ticks == clock - 1, "\(output)")
    }
    #endif

    /// Run only by ``aTimeLimitStopsARunawayAdvance()``, in a child process
    /// (skipped everywhere else): a driven sleep loop that never ends and an
    /// advance that would take 10¹² steps, under a one-minute limit.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TICK_FIXTURE_TIME_LIMIT"] == "1"), .timeLimit(.minutes(1)))
    func runawayAdvanceChild() async {
        let scheduler = TestScheduler(stepBudget: .max)
        let clock = scheduler.virtualClock
        let ticks = Locked(0)
        let ticker = Task {
            while true {
                try await clock.sleep(for: .milliseconds(1))
                ticks.withLock { $0 += 1 }
            }
        }
        print("advance starts")
        await scheduler.advance(to: Self.target)
        print("advance returned at \(scheduler.clock.frames), cancelled \(Task.isCancelled), \(ticks.withLock { $0 }) ticks")
        ticker.cancel()
        _ = await ticker.result
    }
}
