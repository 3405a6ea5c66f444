#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How Tick reports API misuse that it can survive: a negative delay, a
/// `SingleAssignmentDisposable` assigned twice, advancing a test scheduler from
/// inside its own action, and so on.
///
/// Tick never crashes on misuse a user can cause. It does the documented safe
/// thing (for example, treats a negative delay as zero) and reports a
/// ``Report`` to the current handler. The default handler writes the report to
/// standard error; `TickTesting` installs a handler that turns reports into test
/// failures (Swift Testing issues or `XCTFail`s) at the caller's line.
public enum Misuse {
    /// One report of misuse, with where it came from.
    public struct Report: Sendable, CustomStringConvertible {
        /// What went wrong and what to do instead.
        public let message: String
        /// The `#fileID` of the call that misused the API.
        public let fileID: String
        /// The `#filePath` of the call that misused the API.
        public let filePath: String
        /// The line of the call that misused the API.
        public let line: Int
        /// The column of the call that misused the API.
        public let column: Int

        public init(message: String, fileID: String, filePath: String, line: Int, column: Int) {
            self.message = message
            self.fileID = fileID
            self.filePath = filePath
            self.line = line
            self.column = column
        }

        public var description: String { "\(fileID):\(line): Tick misuse: \(message)" }
    }

    /// A function that receives misuse reports.
    public typealias Handler = @Sendable (Report) -> Void

    private final class Storage: @unchecked Sendable {
        let lock = Lock()
        var handler: Handler = Misuse.writeToStandardError
    }
    private static let storage = Storage()

    /// The default handler: writes the report to standard error.
    public static let writeToStandardError: Handler = { report in
        var text = report.description + "\n"
        text.withUTF8 { bytes in
            _ = write(2, bytes.baseAddress, bytes.count)
        }
    }

    /// Replaces the handler that receives misuse reports and returns the old one.
    @discardableResult
    public static func setHandler(_ handler: @escaping Handler) -> Handler {
        storage.lock.withLock {
            let old = storage.handler
            storage.handler = handler
            return old
        }
    }

    /// Reports misuse to the current handler.
    public static func report(
        _ message: String,
        fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column
    ) {
        let handler = storage.lock.withLock { storage.handler }
        handler(Report(message: message, fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
