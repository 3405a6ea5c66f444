import Foundation
import Testing
import Tick
import XCTest

/// Where a test assertion was written: captured from `#fileID`, `#filePath`,
/// `#line` and `#column` default arguments, so failures point at the caller.
public struct CallSite: Sendable {
    public let fileID: String
    public let filePath: StaticString
    public let line: UInt
    public let column: UInt

    public init(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }
}

/// Reports test failures to whichever test framework is running the caller.
///
/// Under Swift Testing (`Test.current` is set) a failure is an
/// `Issue.record` at the call site; otherwise it is an `XCTFail` with the call
/// site's file and line (XCTest ignores it when no XCTest test is running, so
/// it is also written to standard error).
public enum TestFailureReporter {
    /// Records one failure with `message` at `site`.
    public static func fail(_ message: String, at site: CallSite) {
        fail(TestFailure(title: nil, message: message, site: site))
    }

    /// Records one failure: to the handler installed with
    /// ``withHandler(_:operation:)`` if there is one; otherwise as a Swift
    /// Testing issue titled with ``TestFailure/title`` (when a Swift Testing
    /// test is running), as an `XCTFail` (when an XCTest test is running), or
    /// on standard error (when neither is).
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    public static func fail(_ failure: TestFailure) {
        if let handler = handler {
            handler(failure)
            return
        }
        let site = failure.site
        if Test.current != nil {
            let location = SourceLocation(
                fileID: site.fileID, filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column))
            // A failure of the test, at the user's line: an issue whose
            // comment starts with the title. (Recorded with an error instead,
            // it would read "Caught error: …", as if something had thrown.)
            Issue.record(Comment(rawValue: failure.commentText), sourceLocation: location)
            return
        }
        switch XCTestTracker.shared.state {
        case .running:
            XCTFail(failure.message, file: site.filePath, line: site.line)
        case .idle:
            FileHandle.standardError.write(Data("\(site.fileID):\(site.line): \(failure.message)\n".utf8))
        case .unknown:
            // The tracker started watching during this test: XCTFail is
            // ignored when no XCTest test runs, so write it out as well.
            XCTFail(failure.message, file: site.filePath, line: site.line)
            FileHandle.standardError.write(Data("\(site.fileID):\(site.line): \(failure.message)\n".utf8))
        }
    }

    /// The handler of ``withHandler(_:operation:)``, boxed in a class: Swift
    /// 6.3.1 crashes in `swift_task_localValuePush` when a task-local of
    /// optional closure type is bound outside any task in an optimized build
    /// (a class reference is fine).
    final class HandlerBox: Sendable {
        let handle: @Sendable (TestFailure) -> Void
        init(_ handle: @escaping @Sendable (TestFailure) -> Void) { self.handle = handle }
    }

    @TaskLocal static var handlerBox: HandlerBox?

    static var handler: (@Sendable (TestFailure) -> Void)? { handlerBox?.handle }

    /// Runs `operation` with every failure TickTesting reports in it (marble
    /// mismatches, unreadable diagrams, misuse of the test scheduler) passed
    /// to `handler` instead of the test framework: for tools that drive Tick
    /// outside a test runner, or tests of failure messages. The handler is
    /// task-local: it applies to `operation` and the tasks it creates.
    /// Misuse reports of the core library (``Misuse``) still go to the test
    /// framework.
    public static func withHandler<R>(
        _ handler: @escaping @Sendable (TestFailure) -> Void, operation: () throws -> R
    ) rethrows -> R {
        try $handlerBox.withValue(HandlerBox(handler), operation: operation)
    }

    /// Runs `body` when the XCTest test running now ends (in its teardown),
    /// so it can still fail that test; does nothing when no XCTest test is
    /// known to be running. `inSwiftTestingTest` is whether `Test.current`
    /// is set (the caller has read it already; reading it costs a task-local
    /// lookup and a copy of a `Test`).
    /// `body` is an autoclosure that makes the block only when there is a
    /// test to run it (a `[weak self]` block costs two allocations).
    static func atEndOfCurrentXCTest(
        inSwiftTestingTest: Bool, _ body: @autoclosure () -> @Sendable () -> Void
    ) {
        guard !inSwiftTestingTest, handler == nil, let testCase = XCTestTracker.shared.current else { return }
        testCase.addTeardownBlock(body())
    }

    /// Records one failure for a misuse report from the core library.
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    static func fail(_ report: Misuse.Report) {
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: "Tick misuse: " + report.message),
                sourceLocation: SourceLocation(
                    fileID: report.fileID, filePath: report.filePath, line: report.line, column: report.column))
        } else {
            let state = XCTestTracker.shared.state
            if state != .idle { XCTFail("Tick misuse at \(report.fileID):\(report.line): \(report.message)") }
            if state != .running { FileHandle.standardError.write(Data((report.description + "\n").utf8)) }
        }
    }

    private static let installOnce: Void = {
        Misuse.setHandler { report in TestFailureReporter.fail(report) }
        XCTestObservationCenter.shared.addTestObserver(XCTestTracker.shared)
    }()

    /// Makes misuse reports from the core library (``Misuse``) test failures.
    /// Creating a ``TestScheduler`` does this; call it yourself in tests that
    /// use only real schedulers.
    public static func reportMisuseAsTestFailures() {
        _ = installOnce
    }
}

/// One test failure as Tick reports it: a short title that says what went
/// wrong, the full message, and where.
public struct TestFailure: Sendable, CustomStringConvertible {
    /// A one-line summary, e.g. `marble mismatch at frame 1099`; `nil` for
    /// failures whose message is its own summary.
    public let title: String?
    /// The full message (for a marble mismatch, the aligned diff).
    public let message: String
    /// Where the failing assertion was written.
    public let site: CallSite

    /// A failure with `title`, `message` and `site`.
    public init(title: String?, message: String, site: CallSite) {
        self.title = title
        self.message = message
        self.site = site
    }

    /// `file:line: message`.
    public var description: String { "\(site.fileID):\(site.line): \(message)" }

    /// The text of the Swift Testing issue: the title (when there is one) on
    /// the first line, then the message.
    var commentText: String {
        guard let title, !message.hasPrefix(title) else { return message }
        return "\(title)\n\(message)"
    }
}

/// Knows whether an XCTest test is running, and which, by observing XCTest.
/// It starts observing when the first ``TestScheduler`` is made, so the test
/// running then is not known (``State/unknown``).
final class XCTestTracker: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared = XCTestTracker()

    enum State {
        case unknown, running, idle
    }

    // `lock` guards both properties.
    private let lock = Lock()
    private var started = false
    private var testCase: XCTestCase?

    var state: State {
        lock.withLock { started ? (testCase == nil ? .idle : .running) : .unknown }
    }

    var current: XCTestCase? { lock.withLock { testCase } }

    func testCaseWillStart(_ testCase: XCTestCase) {
        lock.withLock {
            started = true
            self.testCase = testCase
        }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        lock.withLock { self.testCase = nil }
    }
}
