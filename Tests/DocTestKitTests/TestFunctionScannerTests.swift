import DocTestKit
import Testing

/// `@Test` functions in a page's blocks: found, their attributes blanked in
/// place, called after the block (Docs/DocsAsTests.md, "Examples that paste").
@Suite struct TestFunctionScannerTests {
    private func scan(_ code: String, firstLine: Int = 2) throws(DocTestError) -> (lines: [String], functions: [TestFunction]) {
        try TestFunctionScanner.scan(
            code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), path: "Docs/Page.md",
            firstLine: firstLine)
    }

    @Test func aTestFunctionIsFoundAndItsAttributeBlankedInPlace() throws {
        let scanned = try scan("import Testing\n\n@Test func spinnerShows() {\n    #expect(1 == 1)\n}")
        #expect(scanned.functions == [
            TestFunction(name: "spinnerShows", line: 4, endLine: 6, isAsync: false, isThrowing: false, isMainActor: false)
        ])
        #expect(scanned.lines[2] == "      func spinnerShows() {")
        #expect(scanned.lines.count == 5)
        #expect(scanned.functions[0].call == "spinnerShows()")
    }

    @Test func traitsOnSeveralLinesAreBlankedAndEffectsRead() throws {
        let scanned = try scan(
            "@Test(\n    \"a (display) name\", .tags(.x)\n)\n@MainActor func loads() async throws {\n    try await f()\n}")
        let function = try #require(scanned.functions.first)
        #expect(function.name == "loads")
        #expect(function.isAsync && function.isThrowing && function.isMainActor)
        #expect(function.call == "try await loads()")
        #expect(function.line == 2 && function.endLine == 7)
        #expect(scanned.lines[0].allSatisfy { $0 == " " })
        #expect(scanned.lines[1].allSatisfy { $0 == " " })
        #expect(scanned.lines[2].allSatisfy { $0 == " " })
        #expect(scanned.lines[3] == "@MainActor func loads() async throws {")
    }

    @Test func aMainActorTestIsAwaitedEvenWhenSynchronous() throws {
        let function = try #require(try scan("@MainActor @Test func a() {}").functions.first)
        #expect(!function.isAsync && function.isMainActor)
        #expect(function.call == "await a()")
    }

    @Test func severalTestsInOneBlockKeepTheirOrder() throws {
        let scanned = try scan("@Test func a() {}\nlet x = \"@Test func no() {}\"\n@Test func b() throws {\n}\n")
        #expect(scanned.functions.map(\.name) == ["a", "b"])
        #expect(scanned.functions.map(\.call) == ["a()", "try b()"])
    }

    @Test func aTestInsideATypeIsAnErrorAtItsLine() {
        #expect(throws: DocTestError.self) {
            try scan("struct Suite {\n    @Test func a() {}\n}")
        }
        do {
            _ = try scan("struct Suite {\n    @Test func a() {}\n}", firstLine: 10)
        } catch {
            #expect(error.line == 11)
            #expect(error.message.contains("top level"))
        }
    }

    @Test func aParameterizedTestIsAnError() {
        do {
            _ = try scan("@Test(arguments: [1, 2]) func a(n: Int) {}")
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("parameterized"))
        }
        do {
            _ = try scan("@Test func a(n: Int) {}")
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("takes parameters"))
        }
    }

    @Test func aSuiteIsAnError() {
        do {
            _ = try scan("@Test struct Suite {}")
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("must mark a function"))
        }
    }

    @Test func theGeneratorCallsEachTestAfterItsBlockAndBeforeTheOutputCheck() throws {
        let page = try MarkdownExtractor.extract(
            path: "Docs/Page.md",
            text: "```swift\nimport Testing\n\n@Test func first() {\n    print(\"hi\")\n}\n```\n\n```output\nhi\n```\n")
        let source = SwiftGenerator.generatePage(SwiftGenerator.Job(page: page, testName: "Docs_Page_md"))
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declaration = try #require(lines.firstIndex(of: "      func first() {"))
        let call = try #require(lines.firstIndex(of: "    first()"))
        let check = try #require(lines.firstIndex { $0.contains("docTestCheckOutput(") })
        #expect(declaration < call && call < check)
        #expect(lines[call - 1] == "#sourceLocation(file: \"Docs/Page.md\", line: 4)")
        // A synchronous test keeps the page synchronous.
        #expect(source.contains("func _docPage_Docs_Page_md() throws {"))
    }

    @Test func anAwaitInsideATestMakesTheTestAsyncNotThePage() throws {
        let sync = try MarkdownExtractor.extract(
            path: "Docs/Page.md", text: "```swift\n@Test func a() async {\n    await f()\n}\n```\n")
        // The call needs `await`, so the page is async after all:
        #expect(SwiftGenerator.generatePage(SwiftGenerator.Job(page: sync, testName: "P")).contains("func _docPage_P() async throws {"))
        let mixed = try MarkdownExtractor.extract(
            path: "Docs/Page.md",
            text: "```swift\nlet t = Task { await f() }\n```\n```swift\n@Test func b() {\n    g()\n}\n```\n")
        #expect(SwiftGenerator.generatePage(SwiftGenerator.Job(page: mixed, testName: "P")).contains("async throws {"))
        let quiet = try MarkdownExtractor.extract(
            path: "Docs/Page.md", text: "```swift\n@Test func c() {\n    _ = Task { await f() }\n}\n```\n")
        #expect(SwiftGenerator.generatePage(SwiftGenerator.Job(page: quiet, testName: "P")).contains("func _docPage_P() throws {"))
    }

    @Test func aShowOnlyBlockKeepsItsTestsAsWritten() throws {
        let page = try MarkdownExtractor.extract(
            path: "Docs/Page.md", text: "```swift show-only\n// Shown: a suite.\n@Suite struct S { @Test func a() {} }\n```\n")
        #expect(page.blocks.first?.testFunctions == [])
    }
}
