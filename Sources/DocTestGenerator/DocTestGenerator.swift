// DocTestGenerator: turns Markdown pages into Swift Testing tests (one test per
// page, all in one generated file). Run by the DocTestsPlugin build-tool
// plugin; see Docs/DocsAsTests.md.
//
// Usage:
//   DocTestGenerator --root <package dir> --output <file.swift>
//                    [--import <module>]... [--trait <trait>]...
//                    [--page <page.md>]... [--pages-in <dir>]...
//                    [--failing-pages-in <dir>]...
//
// `--pages-in` takes every `.md` file under a directory (found here, at build
// time, so a page added later is picked up without re-planning the build).
// `--failing-pages-in` marks fixture pages that must fail (withKnownIssue).
// Prints how many blocks ran, were compile-only and were skipped; exits 1 with
// `page:line: error: ...` on a malformed page.

import DocTestKit
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DocTestGenerator: error: \(message)\n".utf8))
    exit(1)
}

/// Every `.md` file under `directory`, sorted, skipping hidden entries.
func markdownFiles(under directory: URL) -> [URL] {
    guard
        let enumerator = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
    else { return [] }
    return enumerator.compactMap { $0 as? URL }
        .filter { $0.pathExtension == "md" }
        .sorted { $0.path < $1.path }
}

/// The page's path relative to the package root (`Docs/Page.md`), or as given.
func displayPath(_ url: URL, root: URL?) -> String {
    let path = url.standardizedFileURL.path(percentEncoded: false)
    guard let root else { return path }
    var prefix = root.standardizedFileURL.path(percentEncoded: false)
    if !prefix.hasSuffix("/") { prefix += "/" }
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}

/// The entry point (an `@main` type rather than top-level code, so the tool
/// also builds when a whole build is made with `-parse-as-library`, as the
/// fuzzing build is).
@main
enum DocTestGenerator {
    static func main() {
        var root: URL?
        var output: URL?
        var options = SwiftGenerator.Options()
        var pages: [(url: URL, expectingFailure: Bool)] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let flag = arguments.popFirst() {
            guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--root": root = URL(filePath: value, directoryHint: .isDirectory)
            case "--output": output = URL(filePath: value)
            case "--import": options.imports.append(value)
            case "--trait": options.traits.append(value)
            case "--page": pages.append((URL(filePath: value), false))
            case "--pages-in": pages += markdownFiles(under: URL(filePath: value, directoryHint: .isDirectory)).map { ($0, false) }
            case "--failing-pages-in":
                pages += markdownFiles(under: URL(filePath: value, directoryHint: .isDirectory)).map { ($0, true) }
            default: fail("unknown argument \(flag)")
            }
        }
        guard let output else { fail("--output is required") }

        let paths = pages.map { displayPath($0.url, root: root) }
        let names = SwiftGenerator.testIdentifiers(for: paths)
        var jobs: [SwiftGenerator.Job] = []
        var errors: [String] = []
        for ((url, expectingFailure), (path, name)) in zip(pages, zip(paths, names)) {
            guard let data = FileManager.default.contents(atPath: url.path(percentEncoded: false)) else {
                errors.append("\(path):1: error: cannot read the page")
                continue
            }
            do {
                let page = try MarkdownExtractor.extract(path: path, text: String(decoding: data, as: UTF8.self))
                jobs.append(SwiftGenerator.Job(page: page, testName: name, expectingFailure: expectingFailure))
            } catch {
                errors.append(error.description)
            }
        }
        if !errors.isEmpty {
            FileHandle.standardError.write(Data((errors.joined(separator: "\n") + "\n").utf8))
            exit(1)
        }
        do {
            try Data(SwiftGenerator.generateFile(jobs, options: options).utf8).write(to: output)
        } catch {
            fail("cannot write \(output.path(percentEncoded: false)): \(error)")
        }
        let documented = jobs.filter { !$0.expectingFailure }.map(\.page)
        let fixtures = jobs.count - documented.count
        print(
            "DocTestGenerator: \(documented.count) page(s): \(documented.reduce(0) { $0 + $1.count(.run) }) block(s) run, "
                + "\(documented.reduce(0) { $0 + $1.count(.compileOnly) }) compile-only, "
                + "\(documented.reduce(0) { $0 + $1.count(.showOnly) }) skipped (show-only)"
                + (fixtures > 0 ? "; \(fixtures) failing fixture page(s)." : "."))
    }
}
