import Foundation
import Tick
import TickTesting
import XCTest

/// Proves that a failing property is reported to XCTest once, at the line
/// of `forAllTimelines`, with the minimal case's report. The test case
/// captures failures while `capturing` is set instead of failing, then
/// asserts on what it captured.
final class PropertyXCTestReportingTests: XCTestCase {
    private var capturing = false
    private var captured: [(message: String, file: String, line: Int)] = []

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        let location = issue.sourceCodeContext.location
        captured.append((issue.compactDescription, location?.fileURL.path ?? "", location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append((description, filePath, lineNumber))
    }
    #endif

    override class func setUp() {
        super.setUp()
        // Tick starts watching XCTest when the first TestScheduler is made.
        _ = TestScheduler()
    }

    func testAFailingPropertyIsReportedOnceAtItsLine() {
        capturing = true
        let line = #line + 1
        let result = forAllTimelines(runs: 100, seed: 2) { run in
            let n = run.value("n", .int(in: 0...1000))
            XCTAssertTrue(n >= 0)  // holds: XCTest assertions that hold are fine
            return n < 100
        }
        capturing = false
        XCTAssertEqual(captured.map(\.line), [line])
        XCTAssertEqual(captured.first?.file, "\(#filePath)")
        XCTAssertTrue(captured.first?.message.contains("n  value  100") ?? false, "\(captured)")
        XCTAssertEqual(result.counterexample?.timelines, ["n  value  100"])
    }
}
