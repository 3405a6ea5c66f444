import Foundation
import PackagePlugin

/// Generates one Swift Testing test per documentation page: every Markdown file
/// under `Docs/` plus `README.md` (see Docs/DocsAsTests.md).
///
/// The pages live outside the test target, so they are found from the package
/// root (`context.package.directoryURL`) and declared as the command's inputs:
/// editing a page regenerates its test. Pages under the target's `Fixtures/`
/// folder (`Tests/<target>/Fixtures`) are fixtures that must fail (a deliberately wrong output), which
/// proves a wrong output is caught.
@main
struct DocTestsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let root = context.package.directoryURL
        let generator = try context.tool(named: "DocTestGenerator")
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedDocTests", directoryHint: .isDirectory)

        var pages = markdownFiles(under: root.appending(path: "Docs", directoryHint: .isDirectory))
        let readme = root.appending(path: "README.md")
        if FileManager.default.fileExists(atPath: readme.path(percentEncoded: false)) { pages.insert(readme, at: 0) }
        // (`Target.directoryURL` needs tools version 6.1; the test target lives in Tests/<name>.)
        let fixtures = markdownFiles(
            under: root.appending(path: "Tests/\(target.name)/Fixtures", directoryHint: .isDirectory))

        var arguments = [
            "--root", root.path(percentEncoded: false),
            "--import", "Tick", "--import", "TickTesting",
            "--trait", ".checksResourceLeaks",
        ]
        var outputs: [URL] = []
        var usedNames: Set<String> = []
        for (flag, files) in [("--page", pages), ("--failing-page", fixtures)] {
            for page in files {
                let output = outputDirectory.appending(path: uniqueFileName(for: page, root: root, used: &usedNames))
                arguments += [flag, page.path(percentEncoded: false), output.path(percentEncoded: false)]
                outputs.append(output)
            }
        }
        return [
            .buildCommand(
                displayName: "Generating doc tests for \(pages.count) page(s)",
                executable: generator.url,
                arguments: arguments,
                inputFiles: pages + fixtures,
                outputFiles: outputs)
        ]
    }

    /// Every `.md` file under `directory`, sorted, skipping hidden entries.
    private func markdownFiles(under directory: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return [] }
        return enumerator.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "md" }
            .sorted { $0.path < $1.path }
    }

    /// `Docs/Sub/Page.md` → `Docs_Sub_Page.doctest.swift`, unique among `used`.
    private func uniqueFileName(for page: URL, root: URL, used: inout Set<String>) -> String {
        let full = page.standardizedFileURL.path(percentEncoded: false)
        var prefix = root.standardizedFileURL.path(percentEncoded: false)
        if !prefix.hasSuffix("/") { prefix += "/" }
        let relative = full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : page.lastPathComponent
        let base = String(relative.dropLast(3).map { $0.isLetter || $0.isNumber ? $0 : "_" })
        var name = base
        var suffix = 2
        while used.contains(name.lowercased()) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        used.insert(name.lowercased())
        return name + ".doctest.swift"
    }
}
