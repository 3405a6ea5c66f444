import Testing

/// The runtime half of the doc tests: the output buffer and the check that
/// records a mismatch as a test issue.
@Suite struct DocTestSupportTests {
    @Test func theBufferCollectsWhatPrintWouldWriteAndTakeClearsIt() {
        let output = DocTestOutput()
        output.write(["a", 1, 2.5], separator: ", ", terminator: "\n")
        output.write(["b"], separator: " ", terminator: "")
        #expect(output.take() == "a, 1, 2.5\nb")
        #expect(output.take() == "")
        output.write(["c"], separator: " ", terminator: "\n")
        output.discard()
        #expect(output.take() == "")
    }

    @Test func aMatchingOutputRecordsNoIssue() {
        docTestCheckOutput("1\n2\n", expected: "1\n2\n", page: "Docs/P.md", outputFenceLine: 9, blockLine: 3)
    }

    @Test func aWrongOutputRecordsAnIssueNamingThePageAndLine() {
        withKnownIssue {
            docTestCheckOutput("1\n3\n", expected: "1\n2\n", page: "Docs/P.md", outputFenceLine: 9, blockLine: 3)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Docs/P.md:11: the output of the ```swift block at line 3") }
        }
    }
}
