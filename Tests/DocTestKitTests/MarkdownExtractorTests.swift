import DocTestKit
import Testing

@Suite struct MarkdownExtractorTests {
    private func extract(_ text: String, path: String = "Docs/Page.md") throws -> DocPage {
        try MarkdownExtractor.extract(path: path, text: text)
    }

    private func error(_ text: String, path: String = "Docs/Page.md") -> DocTestError? {
        do {
            _ = try MarkdownExtractor.extract(path: path, text: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func extractsSwiftBlocksInOrderWithTheirLines() throws {
        let page = try extract(
            """
            # Title

            ```swift
            let a = 1
            ```

            Some prose.

            ```swift
            print(a)
            ```
            """)
        #expect(page.path == "Docs/Page.md")
        #expect(page.blocks.map(\.kind) == [.run, .run])
        #expect(page.blocks.map(\.fenceLine) == [3, 9])
        #expect(page.blocks.map(\.firstCodeLine) == [4, 10])
        #expect(page.blocks.map(\.lines) == [["let a = 1"], ["print(a)"]])
        #expect(page.blocks.allSatisfy { $0.output == nil })
    }

    @Test func ignoresOtherLanguages() throws {
        let page = try extract(
            """
            ```sh
            swift test
            ```
            ```text
            hello
            ```
            ```
            plain
            ```
            """)
        #expect(page.blocks.isEmpty)
    }

    @Test func pairsAnOutputBlockDirectlyAfterASwiftBlock() throws {
        let page = try extract(
            """
            ```swift
            print("a")
            print("b")
            ```


            ```output
            a
            b
            ```
            ```swift
            print("c")
            ```
            """)
        #expect(page.blocks[0].output == OutputBlock(fenceLine: 7, lines: ["a", "b"]))
        #expect(page.blocks[0].output?.expectedText == "a\nb\n")
        #expect(page.blocks[1].output == nil)
    }

    @Test func anEmptyOutputBlockExpectsNothingPrinted() throws {
        let page = try extract("```swift\nlet x = 1\n```\n```output\n```\n")
        #expect(page.blocks[0].output?.expectedText == "")
    }

    @Test func anOutputBlockAfterProseIsAnError() {
        let failure = error(
            """
            ```swift
            print(1)
            ```
            Prose in between.
            ```output
            1
            ```
            """)
        #expect(failure?.line == 5)
        #expect(failure?.description.hasPrefix("Docs/Page.md:5: error: an ```output block must directly follow") == true)
    }

    @Test func anOutputBlockWithNoSwiftBlockOrASecondOneIsAnError() {
        #expect(error("```output\n1\n```\n")?.line == 1)
        #expect(error("```swift\nprint(1)\n```\n```output\n1\n```\n```output\n1\n```\n")?.line == 7)
    }

    @Test func noRunAndShowOnlyBlocks() throws {
        let page = try extract(
            """
            ```swift no-run
            // Compile-only: it would wait for a real second.
            wait()
            ```
            ```swift show-only
            // Show-only: UIKit does not exist on Linux.
            import UIKit
            ```
            """)
        #expect(page.blocks.map(\.kind) == [.compileOnly, .showOnly])
        #expect(page.count(.run) == 0)
        #expect(page.count(.compileOnly) == 1)
        #expect(page.count(.showOnly) == 1)
    }

    @Test func aBlockThatIsNotRunMustSayWhy() {
        let failure = error("Intro\n```swift no-run\nwait()\n```\n")
        #expect(failure?.line == 2)
        #expect(failure?.message.contains("must say why") == true)
        #expect(error("```swift show-only\nlet v = UIView()\n```\n")?.line == 1)
    }

    @Test func anOutputBlockAfterANoRunBlockIsAnError() {
        let failure = error("```swift no-run\n// not run: slow\nprint(1)\n```\n```output\n1\n```\n")
        #expect(failure?.line == 5)
        #expect(failure?.message.contains("not run") == true)
    }

    @Test func aFileScopeBlockNeedsNoReasonAndTakesNoOutput() throws {
        let page = try MarkdownExtractor.extract(path: "Docs/P.md", text: "```swift file-scope\nstruct S {}\n```\n")
        #expect(page.blocks.map(\.kind) == [.fileScope])
        let failure = error("```swift file-scope\nstruct S {}\n```\n```output\n1\n```\n")
        #expect(failure?.line == 4)
        #expect(failure?.message.contains("not run") == true)
    }

    @Test func unknownSwiftFenceOptionsAreAnError() {
        let failure = error("\n```swift norun\nprint(1)\n```\n")
        #expect(failure?.line == 2)
        #expect(failure?.message.contains("unknown swift fence options `norun`") == true)
    }

    @Test func anUnclosedFenceIsAnErrorNamingFileAndLine() {
        let failure = error(
            """
            # Page

            ```swift
            let a = 1
            """, path: "Docs/Broken.md")
        #expect(failure == DocTestError(path: "Docs/Broken.md", line: 3, message: failure?.message ?? ""))
        #expect(failure?.description.hasPrefix("Docs/Broken.md:3: error: the ```swift fence opened here is never closed") == true)
        // An open fence of any language would swallow the blocks after it.
        #expect(error("```sh\nls\n\n~~~swift\nprint(1)\n~~~\n")?.line == 1)
    }

    @Test func indentedFencesLoseTheirIndentation() throws {
        let page = try extract(
            """
            1. A step:

               ```swift
               let a = 1
                 + 2
               ```
               ```output
               3
               ```
            """)
        #expect(page.blocks[0].lines == ["let a = 1", "  + 2"])
        #expect(page.blocks[0].output?.lines == ["3"])
    }

    @Test func tildeFencesAndLongerFences() throws {
        let page = try extract(
            """
            ~~~swift
            let fence = "```"
            ~~~
            ````swift
            let inner = \"""
            ```
            \"""
            ````
            """)
        #expect(page.blocks.count == 2)
        #expect(page.blocks[0].lines == ["let fence = \"```\""])
        #expect(page.blocks[1].lines == ["let inner = \"\"\"", "```", "\"\"\""])
    }

    @Test func crlfAndCRLineEndings() throws {
        let page = try extract("# T\r\n\r\n```swift\r\nprint(1)\r\nprint(2)\r\n```\r\n```output\r\n1\r\n2\r\n```\r\n")
        #expect(page.blocks[0].fenceLine == 3)
        #expect(page.blocks[0].lines == ["print(1)", "print(2)"])
        #expect(page.blocks[0].output?.expectedText == "1\n2\n")
        let classicMac = try extract("```swift\rprint(1)\r```\r")
        #expect(classicMac.blocks[0].lines == ["print(1)"])
    }
}
