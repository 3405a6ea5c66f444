import Foundation
import Testing
import Tick
import TickTesting

/// The backstop for a forgotten `flush()` under Swift Testing when the
/// scheduler is never released (the observable under test holds it, so its
/// queue and the observable keep each other alive): the test process fails
/// at exit, with one compiler-style diagnostic per unchecked expectation on
/// standard error, naming its `toBe` line and its test.
///
/// The proof runs this very test binary as a child process, with a filter
/// that selects one fixture of ``MarbleForgottenFlushFixtures`` (skipped
/// unless `TICK_FIXTURE_FORGOTTEN_FLUSH` is set), exactly as `swift test`
/// runs the Swift Testing pass: `<binary> --testing-library swift-testing`.
/// Linux only: elsewhere `swift test` runs Swift Testing through a helper
/// tool, not the test binary itself.
@Suite struct MarbleForgottenFlushAtExitTests {
    #if os(Linux)
    /// What a child run of the test binary left behind.
    struct ChildRun {
        let status: Int32
        let reason: Process.TerminationReason
        let standardError: String
        let standardOutput: String
    }

    /// Runs the fixture tests matching `filter` in a child process of the
    /// running test binary.
    func runFixtures(_ filter: String) throws -> ChildRun {
        let binary = URL(filePath: try #require(CommandLine.arguments.first))
        let directory = FileManager.default.temporaryDirectory.appending(path: "tick-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outURL, errURL) = (directory.appending(path: "out"), directory.appending(path: "err"))
        _ = FileManager.default.createFile(atPath: outURL.path(percentEncoded: false), contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path(percentEncoded: false), contents: nil)
        // Files rather than pipes: the child may write more than a pipe holds.
        let (out, err) = (try FileHandle(forWritingTo: outURL), try FileHandle(forWritingTo: errURL))
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment[MarbleForgottenFlushFixtures.variable] = "1"
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ChildRun(
            status: process.terminationStatus, reason: process.terminationReason,
            standardError: try String(contentsOf: errURL, encoding: .utf8),
            standardOutput: try String(contentsOf: outURL, encoding: .utf8))
    }

    /// The diagnostic lines about unchecked marble expectations.
    func diagnostics(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(": error: marble expectation never checked") }
    }

    /// The issue's proof under Swift Testing for the case the scheduler's
    /// release cannot catch: the fixture passes as a test (nothing is
    /// reported during it), and still the process fails, naming its `toBe`
    /// line and its test.
    @Test func aForgottenFlushOfASchedulerKeptAliveFailsTheTestProcessAtTheToBeLine() throws {
        let child = try runFixtures("MarbleForgottenFlushFixtures/forgetsTheFlushOfASchedulerItsObservableKeepsAlive")
        #expect(child.reason == .exit)
        #expect(child.status == 1, "\(child.standardError)")
        let lines = diagnostics(child.standardError)
        #expect(lines.count == 1, "\(child.standardError)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("\(#filePath):\(MarbleForgottenFlushFixtures.forgottenToBeLine):"))
        #expect(
            line.hasSuffix(
                ": error: marble expectation never checked: call `scheduler.flush()` (or use `scheduler.run { … }`)"
                    + " (in test TickTestingTests.MarbleForgottenFlushFixtures.forgetsTheFlushOfASchedulerItsObservableKeepsAlive())"
            ))
        // The fixture itself passed: the failure is the exit backstop's.
        #expect(child.standardError.contains("forgetsTheFlushOfASchedulerItsObservableKeepsAlive() passed"))
        #expect(child.standardError.contains("error: 1 marble expectation was never checked"))
    }

    /// Every expectation of a kept-alive scheduler is listed, each at its own
    /// line, also when an expectation is stated in a task of the test.
    @Test func everyUncheckedExpectationOfAKeptAliveSchedulerIsListedAtExit() throws {
        let child = try runFixtures("MarbleForgottenFlushFixtures/forgetsSeveralExpectations")
        #expect(child.status == 1, "\(child.standardError)")
        let lines = diagnostics(child.standardError)
        #expect(lines.count == MarbleForgottenFlushFixtures.severalToBeLines.count, "\(child.standardError)")
        for (line, expected) in zip(lines, MarbleForgottenFlushFixtures.severalToBeLines) {
            #expect(line.hasPrefix("\(#filePath):\(expected):"))
            #expect(line.hasSuffix("(in test TickTestingTests.MarbleForgottenFlushFixtures.forgetsSeveralExpectations())"))
        }
    }

    /// No false alarm at exit: schedulers kept alive by their observables
    /// but flushed late, written with `run { }`, flushed inside
    /// `withKnownIssue`, or released unchecked (reported during their test,
    /// not again at exit) leave the process's status alone.
    @Test func checkedOrReleasedExpectationsLeaveTheExitStatusAlone() throws {
        let child = try runFixtures("MarbleForgottenFlushFixtures/leavesNothingUnchecked")
        #expect(child.reason == .exit)
        #expect(child.status == 0, "\(child.standardError)")
        #expect(diagnostics(child.standardError).isEmpty, "\(child.standardError)")
        #expect(!child.standardError.contains("never checked (each scheduler"))
    }
    #endif
}

/// Tests run only as the child process of ``MarbleForgottenFlushAtExitTests``
/// (skipped unless `TICK_FIXTURE_FORGOTTEN_FLUSH` is set). No
/// `.checksResourceLeaks` here, on purpose: the trait would report the
/// forgotten flush within the test, and the backstop at exit is what is
/// proved.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TICK_FIXTURE_FORGOTTEN_FLUSH"] != nil))
struct MarbleForgottenFlushFixtures {
    static let variable = "TICK_FIXTURE_FORGOTTEN_FLUSH"

    static let forgottenToBeLine = #line + 6
    /// A wrong expectation, never flushed, on a scheduler that `delay` keeps
    /// alive: nothing is reported during the test.
    @Test func forgetsTheFlushOfASchedulerItsObservableKeepsAlive() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-|")
        scheduler.expect(source.delay(.milliseconds(2), scheduler: scheduler)).toBe("-b-|")
    }

    /// Three never checked (schedulers kept alive by `interval`, `debounce`
    /// and `delay`), one stated in a task of the test.
    static let severalToBeLines = [#line + 4, #line + 6, #line + 8]
    @Test func forgetsSeveralExpectations() async {
        let scheduler = TestScheduler()
        let ticks = Observable<Int>.interval(.milliseconds(2), scheduler: scheduler).take(2)
        scheduler.expect(ticks).toBe("--a-(b|)", values: ["a": 0, "b": 1])
        let source = scheduler.cold("a|")
        scheduler.expect(source.debounce(.milliseconds(1), scheduler: scheduler)).toBe("-a|")
        await Task {
            _ = scheduler.expect(source.delay(.milliseconds(1), scheduler: scheduler)).toBe("-a|")
        }.value
    }

    /// Kept beyond the test by a global and flushed before exit.
    static let longLived = TestScheduler()

    @Test func leavesNothingUnchecked() {
        // Kept alive by `delay`, flushed later: checked.
        let late = TestScheduler()
        let result = late.expect(late.cold("a|").delay(.milliseconds(1), scheduler: late)).toBe("-a|")
        Self.longLived.expect(Self.longLived.cold("a|").delay(.milliseconds(1), scheduler: Self.longLived)).toBe("-a|")
        late.flush()
        #expect(result.passed)
        // `run { }` cannot forget.
        TestScheduler().run { helpers in
            helpers.expect(helpers.cold("a|").delay(.milliseconds(1), scheduler: helpers)).toBe("-a|")
        }
        // A wrong expectation checked inside `withKnownIssue`.
        withKnownIssue {
            TestScheduler().run { helpers in
                helpers.expect(helpers.cold("a|").delay(.milliseconds(1), scheduler: helpers)).toBe("a|")
            }
        }
        // Released unchecked: reported during the test, once.
        withKnownIssue {
            let released = TestScheduler()
            released.expect(released.cold("a|")).toBe("a|")
        }
        Self.longLived.flush()
    }
}
