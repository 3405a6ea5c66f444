import DocTestKit
import Foundation
import Testing

/// A page with a deliberately wrong output must fail: these tests check the
/// generator's output for the fixture and the comparison's verdict. (The
/// DocTests target also runs the same fixture for real, inside withKnownIssue.)
@Suite struct WrongOutputFixtureTests {
    static let fixture = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "Fixtures/WrongOutput.md")

    @Test func theGeneratedTestChecksTheWrongExpectedOutput() throws {
        let text = try String(contentsOf: Self.fixture, encoding: .utf8)
        let page = try MarkdownExtractor.extract(path: "Fixtures/WrongOutput.md", text: text)
        let block = try #require(page.blocks.first)
        #expect(block.lines == ["print(1 + 1)"])
        let output = try #require(block.output)
        #expect(output.expectedText == "3\n")
        let source = SwiftGenerator.generate(page, testName: "Wrong")
        #expect(source.contains(
            "#sourceLocation(file: \"Fixtures/WrongOutput.md\", line: \(output.fenceLine))\n    docTestCheckOutput(_docOutput_Wrong.take(), expected: \"3\\n\", page: \"Fixtures/WrongOutput.md\", outputFenceLine: \(output.fenceLine), blockLine: \(block.fenceLine))"))
        // What `print(1 + 1)` really prints fails the comparison, naming the page and line.
        let verdict = try #require(OutputComparison.mismatch(
            actual: "\(1 + 1)\n", expected: output.expectedText, page: page.path,
            outputFenceLine: output.fenceLine, blockLine: block.fenceLine))
        #expect(verdict.hasPrefix("Fixtures/WrongOutput.md:\(output.fenceLine + 1): "))
        #expect(verdict.contains("expected: \"3\"\n  actual:   \"2\""))
    }
}

@Suite struct OutputComparisonTests {
    @Test func equalOutputPasses() {
        #expect(OutputComparison.mismatch(actual: "a\nb\n", expected: "a\nb\n", page: "P.md", outputFenceLine: 5, blockLine: 1) == nil)
        #expect(OutputComparison.mismatch(actual: "", expected: "", page: "P.md", outputFenceLine: 5, blockLine: 1) == nil)
    }

    @Test func aChangedLineIsNamedByItsPageLine() throws {
        let message = try #require(
            OutputComparison.mismatch(actual: "a\nB\nc\n", expected: "a\nb\nc\n", page: "Docs/P.md", outputFenceLine: 10, blockLine: 3))
        #expect(message.hasPrefix("Docs/P.md:12: the output of the ```swift block at line 3 differs from its ```output block (line 10)."))
        #expect(message.contains("First difference, output line 2:\n  expected: \"b\"\n  actual:   \"B\""))
        #expect(message.hasSuffix("Expected output:\n  | a\n  | b\n  | c\nActual output:\n  | a\n  | B\n  | c"))
    }

    @Test func extraAndMissingLinesAreShown() throws {
        let extra = try #require(OutputComparison.mismatch(actual: "a\nb\n", expected: "a\n", page: "P.md", outputFenceLine: 1, blockLine: 1))
        #expect(extra.hasPrefix("P.md:3:"))
        #expect(extra.contains("expected: (no more lines)\n  actual:   \"b\""))
        let nothing = try #require(OutputComparison.mismatch(actual: "", expected: "a\n", page: "P.md", outputFenceLine: 1, blockLine: 1))
        #expect(nothing.contains("Actual output:\n  | (nothing)"))
    }

    @Test func whitespaceAndAMissingFinalNewlineCount() throws {
        #expect(OutputComparison.mismatch(actual: "a \n", expected: "a\n", page: "P.md", outputFenceLine: 1, blockLine: 1) != nil)
        let noNewline = try #require(OutputComparison.mismatch(actual: "a", expected: "a\n", page: "P.md", outputFenceLine: 1, blockLine: 1))
        #expect(noNewline.contains("actual:   \"a (no newline at end)\""))
    }
}
