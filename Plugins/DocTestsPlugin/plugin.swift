import Foundation
import PackagePlugin

/// Generates one Swift Testing test per documentation page: every Markdown file
/// under `Docs/` plus `README.md` (see Docs/DocsAsTests.md).
///
/// The pages live outside the test target, so they are found from the package
/// root (`context.package.directoryURL`) and declared as the command's inputs:
/// editing a page regenerates the tests. The `Docs/` directories are inputs
/// too, and the generator lists the pages itself, so a page added later is
/// picked up without re-planning the build. All tests go into one generated
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
            "--import", "Tick", "--import", "TickTesting",
            "--trait", ".checksResourceLeaks",
        ]
        var inputs: [URL] = []
        if exists(readme) {
            arguments += ["--page", readme.path(percentEncoded: false)]
            inputs.append(readme)
        }
        for (flag, directory) in [("--pages-in", docs), ("--failing-pages-in", fixtures)] where exists(directory) {
            arguments += [flag, directory.path(percentEncoded: false)]
            // The directories themselves are inputs: adding or removing a page changes them.
            inputs += [directory] + contents(of: directory)
        }
        return [
            .buildCommand(
                displayName: "Generating doc tests from README.md and Docs/",
                executable: generator.url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    private func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path(percentEncoded: false))
    }

    /// Every Markdown file and subdirectory under `directory`, skipping hidden entries.
    private func contents(of directory: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { url in
            url.pathExtension == "md" || (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
        }
    }
}
