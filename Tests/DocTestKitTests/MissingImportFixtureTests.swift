import DocTestKit
import Foundation
import Testing

/// Issue 16, item 12: a page is compiled with exactly the imports it writes.
/// These tests run the compiler on a page's generated file: the fixture that
/// forgets `import Foundation` fails at its own line, and the same page with
/// the import compiles. (The test target depends on every module; what
/// limits a page is that its file imports only what the page imports.)
@Suite struct MissingImportFixtureTests {
    static let fixture = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "Fixtures/MissingImport.md")

    /// The runtime support the generated page calls (DocTests' real one is
    /// in Tests/DocTests/DocTestSupport.swift), without any import.
    static let support = """
        final class DocTestOutput: @unchecked Sendable {
            func write(_ items: [Any], separator: String, terminator: String) {}
            func take() -> String { "" }
            func discard() {}
        }
        func docTestCheckOutput(_ actual: String, expected: String, page: String, outputFenceLine: Int, blockLine: Int) {}

        """

    /// Type-checks the page's generated file with the support file; returns
    /// the compiler's exit code and diagnostics.
    func typecheck(_ page: DocPage, modules: URL? = nil) throws -> (status: Int32, diagnostics: String) {
        let directory = FileManager.default.temporaryDirectory.appending(path: "doc-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pageFile = directory.appending(path: "Page.swift")
        let supportFile = directory.appending(path: "Support.swift")
        try SwiftGenerator.generatePage(.init(page: page, testName: "Fixture")).write(to: pageFile, atomically: true, encoding: .utf8)
        try Self.support.write(to: supportFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-enable-upcoming-feature", "MemberImportVisibility",
            "-module-name", "DocImportFixture", supportFile.path(percentEncoded: false), pageFile.path(percentEncoded: false),
        ] + (modules.map { ["-I", $0.path(percentEncoded: false)] + Self.cModuleMaps(besides: $0) } ?? [])
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let diagnostics = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, diagnostics)
    }

    @Test func aPageMissingAnImportFailsToCompileAtItsOwnLine() throws {
        let text = try String(contentsOf: Self.fixture, encoding: .utf8)
        let page = try MarkdownExtractor.extract(path: "Fixtures/MissingImport.md", text: text)
        let line = try #require(page.blocks.first).firstCodeLine
        let result = try typecheck(page)
        #expect(result.status != 0)
        #expect(result.diagnostics.contains("Fixtures/MissingImport.md:\(line):"))
        #expect(result.diagnostics.contains("cannot find 'Date' in scope"))
    }

    /// The package's built modules (`.build/<config>/Modules`), found next to
    /// the running test binary.
    static var builtModules: URL? {
        var directory = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let modules = directory.appending(path: "Modules")
            if FileManager.default.fileExists(atPath: modules.appending(path: "TickTesting.swiftmodule").path(percentEncoded: false)) {
                return modules
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// The module maps of the package's C targets (`<target>.build/
    /// module.modulemap` beside `Modules`), as SwiftPM hands them to every
    /// target that depends on them, a user's test target included:
    /// TickTesting imports its C target (TickRuntimeHooks) internally, and a
    /// client compiler still loads it.
    static func cModuleMaps(besides modules: URL) -> [String] {
        let buildDirectory = modules.deletingLastPathComponent()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: buildDirectory.path(percentEncoded: false))) ?? []
        return entries.sorted().flatMap { entry -> [String] in
            let map = buildDirectory.appending(path: entry).appending(path: "module.modulemap")
            guard entry.hasSuffix(".build"), FileManager.default.fileExists(atPath: map.path(percentEncoded: false)) else { return [] }
            return ["-Xcc", "-fmodule-map-file=\(map.path(percentEncoded: false))"]
        }
    }

    @Test func aPageImportingOnlyTickIndicatorsCannotUseTestScheduler() throws {
        let modules = try #require(Self.builtModules, "the package's built modules were not found next to the test binary")
        let path = "Fixtures/MissingTickTestingImport.md"
        let text = try String(contentsOf: Self.fixture.deletingLastPathComponent().appending(path: "MissingTickTestingImport.md"), encoding: .utf8)
        let page = try MarkdownExtractor.extract(path: path, text: text)
        let block = try #require(page.blocks.first)
        let result = try typecheck(page, modules: modules)
        #expect(result.status != 0)
        #expect(result.diagnostics.contains("\(path):\(block.firstCodeLine + 2):"))
        #expect(result.diagnostics.contains("cannot find 'TestScheduler' in scope"))
        // With the import the page needs, it compiles.
        let fixed = try MarkdownExtractor.extract(
            path: path, text: text.replacingOccurrences(of: "import TickIndicators\n", with: "import TickIndicators\nimport TickTesting\n"))
        let compiled = try typecheck(fixed, modules: modules)
        #expect(compiled.status == 0, "\(compiled.diagnostics)")
    }

    @Test func theSamePageWithTheImportCompiles() throws {
        let text = try String(contentsOf: Self.fixture, encoding: .utf8)
            .replacingOccurrences(of: "```swift\n", with: "```swift\nimport Foundation\n")
        let page = try MarkdownExtractor.extract(path: "Fixtures/MissingImport.md", text: text)
        let result = try typecheck(page)
        #expect(result.status == 0, "\(result.diagnostics)")
    }
}
