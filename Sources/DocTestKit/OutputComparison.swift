/// Compares what a documentation example printed with its ```` ```output ```` block.
public enum OutputComparison {
    /// `nil` when `actual` is exactly `expected`; otherwise a failure message
    /// naming the page and line of the first differing output line, with both
    /// outputs in full.
    ///
    /// - Parameters:
    ///   - outputFenceLine: the page line of the ```` ```output ```` fence; the
    ///     expected text starts on the next line.
    ///   - blockLine: the page line of the ```` ```swift ```` fence that printed `actual`.
    public static func mismatch(
        actual: String, expected: String, page: String, outputFenceLine: Int, blockLine: Int
    ) -> String? {
        guard actual != expected else { return nil }
        let actualLines = lines(actual)
        let expectedLines = lines(expected)
        var first = 0
        while first < actualLines.count, first < expectedLines.count, actualLines[first] == expectedLines[first] {
            first += 1
        }
        // The page line of the first difference (or of the closing fence, if
        // the expected output ran out).
        let pageLine = outputFenceLine + 1 + first
        var message = "\(page):\(pageLine): the output of the ```swift block at line \(blockLine) differs from its ```output block (line \(outputFenceLine)).\n"
        message += "First difference, output line \(first + 1):\n"
        message += "  expected: \(first < expectedLines.count ? quoted(expectedLines[first]) : "(no more lines)")\n"
        message += "  actual:   \(first < actualLines.count ? quoted(actualLines[first]) : "(no more lines)")\n"
        message += "Expected output:\n\(framed(expected))\nActual output:\n\(framed(actual))"
        return message
    }

    /// The lines of `text`; a final newline does not start another line, and
    /// a missing final newline is called out on the last line.
    private static func lines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" {
            parts.removeLast()
        } else if let last = parts.popLast() {
            parts.append(last + " (no newline at end)")
        }
        return parts
    }

    private static func quoted(_ line: String) -> String {
        SwiftGenerator.stringLiteral(line)
    }

    private static func framed(_ text: String) -> String {
        let body = lines(text)
        if body.isEmpty { return "  | (nothing)" }
        return body.map { "  | " + $0 }.joined(separator: "\n")
    }
}
