// Runtime support for the generated doc tests (one per Markdown page; see
// Docs/DocsAsTests.md). The generated files call these; they do not import
// DocTestKit themselves, so its names never collide with a page's.

import DocTestKit
import Synchronization
import Testing
import TickTesting

/// The trait of every page's test (`.checksResourceLeaks`), as a global of
/// this target: the generated tests file imports only `Testing`, and a page's
/// file only what the page imports, so neither could name TickTesting's trait.
let docTestLeakCheck: any TestTrait = ResourceLeakCheck()

/// What a page's examples printed since the last check. Each generated file
/// has its own, written by a `print` private to that file.
final class DocTestOutput: Sendable {
    private let text = Mutex("")

    /// Appends what `print(items, separator:terminator:)` would write.
    func write(_ items: [Any], separator: String, terminator: String) {
        let line = items.map { String(describing: $0) }.joined(separator: separator) + terminator
        text.withLock { $0 += line }
    }

    /// Returns everything printed so far and clears it.
    func take() -> String {
        text.withLock { text in
            defer { text = "" }
            return text
        }
    }

    /// Forgets everything printed so far.
    func discard() { _ = take() }
}

/// Records a test issue (at the output block's page line) when `actual` is
/// not exactly `expected`.
func docTestCheckOutput(
    _ actual: String, expected: String, page: String, outputFenceLine: Int, blockLine: Int,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    // (Plain literals, not Testing's `#_sourceLocation`: the caller is a
    // page's file, which does not import Testing unless the page does.)
    let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if let message = OutputComparison.mismatch(
        actual: actual, expected: expected, page: page, outputFenceLine: outputFenceLine, blockLine: blockLine)
    {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
