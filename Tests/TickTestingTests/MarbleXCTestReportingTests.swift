import Foundation
import Tick
import TickTesting
import XCTest

/// Proves that marble failures reach XCTest as failures at the caller's file
/// and line. The test case captures failures while `capturing` is set instead
/// of failing, then asserts on what it captured.
final class MarbleXCTestReportingTests: XCTestCase {
    private struct Captured {
        var message: String
        var file: String
        var line: Int
    }

    private var capturing = false
    private var captured: [Captured] = []

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        let location = issue.sourceCodeContext.location
        captured.append(
            Captured(
                message: issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append(Captured(message: description, file: filePath, line: lineNumber))
    }
    #endif

    override class func setUp() {
        super.setUp()
        // Tick starts watching XCTest when the first TestScheduler is made;
        // making one here means every test of this class is known to it.
        _ = TestScheduler()
    }

    private var expectedAtTeardown: (line: Int, message: String)?

    override func tearDown() {
        // Teardown blocks (where unchecked expectations are reported) run
        // before tearDown().
        if let expected = expectedAtTeardown {
            capturing = false
            XCTAssertEqual(captured.map(\.line), [expected.line])
            XCTAssertEqual(captured.first?.file, "\(#filePath)")
            XCTAssertTrue(captured.first?.message.contains(expected.message) ?? false, "\(captured)")
        }
        // Runs what a kept-alive scheduler still had queued (checked
        // already: nothing more is reported), so it is released.
        keptAlive?.flush()
        keptAlive = nil
        super.tearDown()
    }

    /// Nothing keeps this scheduler alive: it is released when the test lets
    /// go of it (during the test) and reports then. The teardown block finds
    /// nothing left: a second report would be a real failure of this test
    /// (`capturing` is off by then).
    func testForgottenFlushFailsAtTheExpectLine() {
        capturing = true
        let line = #line + 3
        do {
            let scheduler = TestScheduler()
            scheduler.expect(scheduler.cold("-a|")).toBe("-b|")
        }
        capturing = false
        XCTAssertEqual(captured.map(\.line), [line])
        XCTAssertEqual(captured.first?.file, "\(#filePath)")
        XCTAssertTrue(
            captured.first?.message.contains(
                "marble expectation never checked: call `scheduler.flush()` (or use `scheduler.run { … }`)") ?? false,
            "\(captured)")
    }

    private var keptAlive: TestScheduler?

    /// A scheduler still alive when the test ends (kept by the test case
    /// here; an observable that holds it, like this delay, does the same) is
    /// reported by the teardown block, once.
    func testForgottenFlushOfASchedulerKeptAliveFailsAtTheExpectLineAtTeardown() {
        capturing = true
        let scheduler = TestScheduler()
        let line = #line + 1
        scheduler.expect(scheduler.cold("-a|").delay(.milliseconds(1), scheduler: scheduler)).toBe("--b|")
        keptAlive = scheduler
        expectedAtTeardown = (
            line, "marble expectation never checked: call `scheduler.flush()` (or use `scheduler.run { … }`)"
        )
    }

    /// Runs `body` in its own resource scope and fails if any Tick resource it
    /// created is still alive afterwards (the XCTest counterpart of the
    /// `.checksResourceLeaks` trait).
    private func checkingLeaks(file: StaticString = #filePath, line: UInt = #line, _ body: () -> Void) {
        let scope = Resources.Scope()
        scope.run(body)
        XCTAssertEqual(scope.live, 0, "Tick resources still alive after the test", file: file, line: line)
    }

    func testFailingExpectationIsAnXCTestFailureAtTheCallersLine() {
        checkingLeaks {
            let scheduler = TestScheduler()
            let source = scheduler.cold("-a-b-|")
            let line = #line + 1
            scheduler.expect(source.map { $0 + $0 }).toBe("-a-c-|", values: ["a": "aa", "c": "cc"])
            capturing = true
            scheduler.flush()
            capturing = false

            XCTAssertEqual(captured.count, 1)
            let failure = captured.first
            XCTAssertEqual(failure?.line, line)
            XCTAssertEqual(failure?.file, "\(#filePath)")
            let message = failure?.message ?? ""
            XCTAssertTrue(message.contains("expected: -a-c-|\nactual:   -a-b-|\n             ^ first difference at frame 3 (3ms)"), message)
            XCTAssertTrue(message.contains("values: a = \"aa\", c = \"cc\", b = \"bb\""), message)
            XCTAssertTrue(message.contains("frame 3 (3ms): expected next(cc), actual next(bb)"), message)
        }
    }

    func testPassingExpectationRecordsNothing() {
        checkingLeaks {
            let scheduler = TestScheduler()
            let source = scheduler.cold("-a-b-|")
            scheduler.expect(source).toBe("-a-b-|")
            scheduler.expectSubscriptions(source.subscriptions).toBe("^----!")
            capturing = true
            scheduler.flush()
            capturing = false
            XCTAssertEqual(captured.count, 0)
        }
    }

    func testUnreadableDiagramIsAnXCTestFailureAtTheCallersLine() {
        checkingLeaks {
            let scheduler = TestScheduler()
            capturing = true
            let line = #line + 1
            _ = scheduler.cold("a)")
            capturing = false
            XCTAssertEqual(captured.map(\.line), [line])
            XCTAssertTrue(captured.first?.message.contains("\")\" closes a group that was never opened\n  a)\n   ^") ?? false)
        }
    }
}
