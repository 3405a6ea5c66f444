import Foundation
import PackagePlugin

/// Generates one Swift Testing test per documentation page: every Markdown file
/// under `Docs/` plus `README.md` (see Docs/DocsAsTests.md).
///
/// The pages live outside the test target, so they are found from the package
/// root (`context.package.directoryURL`) and declared as the command's inputs:
/// editing a page regenerates the tests. Each page's code goes to its own
/// generated file, which imports exactly what the page imports (a Swift file
/// sees only the modules it imports, so a missing import fails the build at
/// the page's line); one more file holds the `@Test` functions. SwiftPM asks
/// the plugin for its commands on every build, so a page added later gets its
/// file. Pages under `Tests/<target>/Fixtures` are fixtures that must fail (a
/// deliberately wrong output), which proves a wrong output is caught.
@main
struct DocTestsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let root = context.package.directoryURL
        let generator = try context.tool(named: "DocTestGenerator")
        let output = context.pluginWorkDirectoryURL.appending(path: "DocTests.generated.swift")
        let docs = root.appending(path: "Docs", directoryHint: .isDirectory)
        let readme = root.appending(path: "README.md")
        // (`Target.directoryURL` needs tools version 6.1; the test target lives in Tests/<name>.)
        let fixtures = root.appending(path: "Tests/\(target.name)/Fixtures", directoryHint: .isDirectory)

        var arguments = [
            "--root", root.path(percentEncoded: false),
            "--output", output.path(percentEncoded: false),
            // A global of the test target (DocTestSupport.swift): the tests
            // file imports only Testing.
            "--trait", "docTestLeakCheck",
        ]
        var inputs: [URL] = []
        var outputs = [output]
        func add(_ page: URL, flag: String) {
            let name = page.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber }
            let file = context.pluginWorkDirectoryURL.appending(path: "DocPage\(outputs.count)_\(name).swift")
            arguments += [flag, page.path(percentEncoded: false), "--page-output", file.path(percentEncoded: false)]
            inputs.append(page)
            outputs.append(file)
        }
        if exists(readme) { add(readme, flag: "--page") }
        for (flag, directory) in [("--page", docs), ("--failing-page", fixtures)] where exists(directory) {
            let found = contents(of: directory)
            for page in found where page.pathExtension == "md" { add(page, flag: flag) }
            // The directories themselves are inputs: adding or removing a page changes them.
            inputs += [directory] + found.filter { $0.pathExtension != "md" }
        }
        return [
            .buildCommand(
                displayName: "Generating doc tests from README.md and Docs/",
                executable: generator.url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: outputs)
        ]
    }

    private func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path(percentEncoded: false))
    }

    /// Every Markdown file and subdirectory under `directory`, sorted, skipping hidden entries.
    private func contents(of directory: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { url in
            url.pathExtension == "md" || (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
        }.sorted { $0.path < $1.path }
    }
}
