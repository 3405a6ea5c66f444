import DocTestKit
import Foundation
import Testing

@Suite struct SwiftGeneratorTests {
    private func generate(_ markdown: String, path: String = "Docs/Page.md", expectingFailure: Bool = false) throws -> String {
        let page = try MarkdownExtractor.extract(path: path, text: markdown)
        return SwiftGenerator.generate(
            page, testName: "Docs_Page_md",
            options: .init(imports: ["Tick"], traits: [".checksResourceLeaks"]),
            expectingFailure: expectingFailure)
    }

    private func lines(_ source: String) -> [String] {
        source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func onePageIsOneTestFunctionWithTheBlocksInOrder() throws {
        let source = try generate("```swift\nlet a = 1\n```\n\n```swift\nprint(a + 1)\n```\n")
        #expect(source.contains("#sourceLocation(file: \"Docs/Page.md\", line: 1)\n@Test(\"Docs/Page.md\", .checksResourceLeaks)\nfunc Docs_Page_md() async throws {\n#sourceLocation()\n    try _docPage_Docs_Page_md()\n}"))
        #expect(source.contains("#sourceLocation(file: \"Docs/Page.md\", line: 1)\nfunc _docPage_Docs_Page_md() throws {"))
        let body = lines(source)
        let first = try #require(body.firstIndex(of: "let a = 1"))
        let second = try #require(body.firstIndex(of: "print(a + 1)"))
        #expect(first < second)
        #expect(source.components(separatedBy: "@Test(").count == 2)
    }

    @Test func aPageIsAnAsyncTestOnlyIfARunBlockAwaits() throws {
        #expect(try generate("```swift\nlet a = 1\n```\n").contains("func _docPage_Docs_Page_md() throws {"))
        #expect(try generate("```swift\nlet a = 1\n```\n```swift\nawait f()\n```\n").contains("func _docPage_Docs_Page_md() async throws {"))
        #expect(try generate("```swift\nawait f()\n```\n").contains("    try await _docPage_Docs_Page_md()\n"))
        #expect(try generate("```swift\nasync let a = f()\n```\n").contains("func _docPage_Docs_Page_md() async throws {"))
        // A no-run block is compiled in an async closure of its own.
        #expect(try generate("```swift no-run\n// Not run: waits.\nawait f()\n```\n").contains("func _docPage_Docs_Page_md() throws {"))
        #expect(try generate("```swift\nlet awaited = 1\n```\n").contains("func _docPage_Docs_Page_md() throws {"))
    }

    @Test func aFileScopeBlockIsDeclaredBeforeThePageFunctionWithItsImportsHoisted() throws {
        let source = try generate("```swift\nlet m = M()\n```\n\n```swift file-scope\nimport Observation\n@Observable final class M {}\n```\n")
        let body = lines(source)
        let declaration = try #require(body.firstIndex(of: "@Observable final class M {}"))
        let function = try #require(body.firstIndex(of: "func _docPage_Docs_Page_md() throws {"))
        let use = try #require(body.firstIndex(of: "let m = M()"))
        #expect(declaration < function && function < use)
        #expect(body[declaration - 2] == "#sourceLocation(file: \"Docs/Page.md\", line: 6)")
        #expect(body.contains("import Observation"))
        #expect(body.firstIndex(of: "import Observation")! < declaration)
    }

    @Test func everyBlockPointsAtItsPageLine() throws {
        let source = try generate("# T\n\n```swift\nlet a = 1\n```\n\ntext\n\n```swift\nprint(a)\n```\n")
        let body = lines(source)
        let a = try #require(body.firstIndex(of: "let a = 1"))
        let printA = try #require(body.firstIndex(of: "print(a)"))
        #expect(body[a - 1] == "#sourceLocation(file: \"Docs/Page.md\", line: 4)")
        #expect(body[a + 1] == "#sourceLocation()")
        #expect(body[printA - 1] == "#sourceLocation(file: \"Docs/Page.md\", line: 10)")
    }

    @Test func theOutputCheckCarriesTheExpectedTextAndPointsAtTheOutputBlock() throws {
        let source = try generate("```swift\nprint(\"a\")\n```\n```output\na \"quoted\"\n\\n\n```\n")
        let body = lines(source)
        let check = try #require(body.firstIndex { $0.contains("docTestCheckOutput(") })
        #expect(body[check - 1] == "#sourceLocation(file: \"Docs/Page.md\", line: 4)")
        #expect(body[check].contains(#"expected: "a \"quoted\"\n\\n\n""#))
        #expect(body[check].contains("page: \"Docs/Page.md\", outputFenceLine: 4, blockLine: 1"))
        // Output printed before the block is not counted as its output.
        #expect(body[check - 5] == "    _docOutput_Docs_Page_md.discard()")
    }

    @Test func printIsCapturedByAFunctionLocalToThePageTest() throws {
        let source = try generate("```swift\nprint(1)\n```\n")
        #expect(source.contains(
            "func _docPage_Docs_Page_md() throws {\n#sourceLocation()\n    @Sendable func print(_ items: Any..., separator: String = \" \", terminator: String = \"\\n\") {\n        _docOutput_Docs_Page_md.write(items, separator: separator, terminator: terminator)\n    }"))
        #expect(source.contains("private let _docOutput_Docs_Page_md = DocTestOutput()"))
        #expect(!source.contains("FileHandle") && !source.contains("stdout"))
    }

    @Test func eachPageHasItsOwnFileBufferAndPrintAndOneTestsFileCallsThem() throws {
        let a = try MarkdownExtractor.extract(path: "Docs/A.md", text: "```swift\nimport Tick\nstruct Item {}\nprint(1)\n```\n")
        let b = try MarkdownExtractor.extract(path: "Docs/B.md", text: "```swift\nstruct Item {}\nprint(2)\n```\n")
        let jobs: [SwiftGenerator.Job] = [.init(page: a, testName: "Docs_A_md"), .init(page: b, testName: "Docs_B_md")]
        let tests = SwiftGenerator.generateTests(jobs)
        #expect(tests.components(separatedBy: "@Test(").count == 3)
        #expect(tests.contains("func Docs_A_md() async throws {") && tests.contains("func Docs_B_md() async throws {"))
        #expect(tests.contains("try _docPage_Docs_A_md()") && tests.contains("try _docPage_Docs_B_md()"))
        #expect(lines(tests).filter { $0.hasPrefix("import ") } == ["import Testing"])
        #expect(tests.contains("// 2 block(s) run, 0 compile-only, 0 skipped (show-only)."))
        let pageA = SwiftGenerator.generatePage(jobs[0])
        let pageB = SwiftGenerator.generatePage(jobs[1])
        #expect(pageA.contains("private let _docOutput_Docs_A_md = DocTestOutput()"))
        #expect(pageB.contains("private let _docOutput_Docs_B_md = DocTestOutput()"))
        // A page's file imports exactly what the page imports: not Testing, not the other page's modules.
        #expect(lines(pageA).filter { $0.hasPrefix("import ") } == ["import Tick"])
        #expect(lines(pageB).filter { $0.hasPrefix("import ") }.isEmpty)
    }

    @Test func importsAreHoistedAndLineNumbersKept() throws {
        let page = try MarkdownExtractor.extract(
            path: "Docs/Page.md", text: "```swift\nimport TickTesting\n@testable import Tick\nlet s = 1\n```\n```swift\nimport TickTesting\n```\n")
        let source = SwiftGenerator.generatePage(.init(page: page, testName: "Docs_Page_md"))
        let body = lines(source)
        #expect(Array(body[2...3]) == ["import TickTesting", "@testable import Tick"])
        #expect(!source.contains("import Testing"))
        let s = try #require(body.firstIndex(of: "let s = 1"))
        #expect(body[s - 1] == "" && body[s - 2] == "")
        #expect(body[s - 3] == "#sourceLocation(file: \"Docs/Page.md\", line: 2)")
        #expect(source.components(separatedBy: "import TickTesting").count == 2)
    }

    @Test func declarationsStayInThePageFunction() throws {
        let source = try generate(
            """
            ```swift
            struct Point { var x: Int }
            func double(_ p: Point) -> Int { p.x * 2 }
            ```
            ```swift
            print(double(Point(x: 2)))
            ```
            """)
        let body = lines(source)
        let function = try #require(body.firstIndex(of: "func _docPage_Docs_Page_md() throws {"))
        let point = try #require(body.firstIndex(of: "struct Point { var x: Int }"))
        #expect(function < point)
        #expect(body.last(where: { !$0.isEmpty }) == "}")
    }

    @Test func noRunBlocksAreCompiledInAClosureThatNeverRunsAndShowOnlyBlocksAreLeftOut() throws {
        let source = try generate(
            """
            ```swift no-run
            // Not run: waits a real second.
            sleepALot()
            ```
            ```swift show-only
            // Not compiled: UIKit is not on Linux.
            import UIKit
            let view = UIView()
            ```
            """)
        let body = lines(source)
        let call = try #require(body.firstIndex(of: "sleepALot()"))
        #expect(body[call - 3] == "    _ = { () async throws -> Void in")
        #expect(body[call - 2] == "#sourceLocation(file: \"Docs/Page.md\", line: 2)")
        #expect(!source.contains("UIView") && !source.contains("import UIKit"))
        #expect(source.contains("// MARK: Docs/Page.md: 0 block(s) run, 1 compile-only, 1 skipped (show-only)."))
    }

    @Test func aFailingFixtureIsWrappedInWithKnownIssue() throws {
        let source = try generate("```swift\nprint(2)\n```\n```output\n3\n```\n", path: "Fixtures/Wrong.md", expectingFailure: true)
        #expect(source.contains("try await withKnownIssue("))
        #expect(source.contains("issue.comments.contains { $0.rawValue.contains(\"Fixtures/Wrong.md:\") }"))
    }

    @Test func testNamesAreUniqueIdentifiers() {
        #expect(
            SwiftGenerator.testIdentifiers(for: ["README.md", "Docs/A-B.md", "Docs/A_B.md", "Docs/A B.md", "9.md"])
                == ["README_md", "Docs_A_B_md", "Docs_A_B_md_2", "Docs_A_B_md_3", "_9_md"])
    }

    @Test func stringLiteralsEscapeEverythingSpecial() {
        #expect(SwiftGenerator.stringLiteral("a\"b\\c\nd\te\u{1}") == #""a\"b\\c\nd\te\u{1}""#)
        #expect(SwiftGenerator.stringLiteral("µs →") == "\"µs →\"")
    }
}
