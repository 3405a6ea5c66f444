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
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: site.fileID, filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column)))
        } else {
            XCTFail(message, file: site.filePath, line: site.line)
            FileHandle.standardError.write(Data("\(site.fileID):\(site.line): \(message)\n".utf8))
        }
    }

    /// Records one failure for a misuse report from the core library.
    static func fail(_ report: Misuse.Report) {
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: "Tick misuse: " + report.message),
                sourceLocation: SourceLocation(
                    fileID: report.fileID, filePath: report.filePath, line: report.line, column: report.column))
        } else {
            XCTFail("Tick misuse at \(report.fileID):\(report.line): \(report.message)")
            FileHandle.standardError.write(Data((report.description + "\n").utf8))
        }
    }

    private static let installOnce: Void = {
        Misuse.setHandler { report in TestFailureReporter.fail(report) }
    }()

    /// Makes misuse reports from the core library (``Misuse``) test failures.
    /// Creating a ``TestScheduler`` does this; call it yourself in tests that
    /// use only real schedulers.
    public static func reportMisuseAsTestFailures() {
        _ = installOnce
    }
}
