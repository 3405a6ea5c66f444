// DocTestGenerator: turns Markdown pages into Swift Testing tests: one Swift
// file per page (with exactly the page's imports) and one tests file with a
// `@Test` per page. Run by the DocTestsPlugin build-tool plugin; see
// Docs/DocsAsTests.md.
//
// Usage:
//   DocTestGenerator --root <package dir> --output <tests.swift>
//                    [--import <module>]... [--trait <trait>]...
//                    [--page <page.md> --page-output <page.swift>]...
//                    [--failing-page <page.md> --page-output <page.swift>]...
//
// Each `--page`/`--failing-page` is followed by the file its code goes to.
// `--failing-page` marks a fixture page that must fail (withKnownIssue).
// Prints how many blocks ran, were compile-only and were skipped; exits 1 with
// `page:line: error: ...` on a malformed page.

import DocTestKit
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DocTestGenerator: error: \(message)\n".utf8))
    exit(1)
}

/// Writes `data` unless the file already holds exactly it (an unchanged page
/// keeps its file's date, so only changed pages are recompiled).
func writeIfChanged(_ data: Data, to url: URL) throws {
    if FileManager.default.contents(atPath: url.path(percentEncoded: false)) == data { return }
    try data.write(to: url)
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
        var pages: [(url: URL, expectingFailure: Bool, output: URL?)] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let flag = arguments.popFirst() {
            guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--root": root = URL(filePath: value, directoryHint: .isDirectory)
            case "--output": output = URL(filePath: value)
            case "--import": options.imports.append(value)
            case "--trait": options.traits.append(value)
            case "--page": pages.append((URL(filePath: value), false, nil))
            case "--failing-page": pages.append((URL(filePath: value), true, nil))
            case "--page-output":
                guard let last = pages.indices.last, pages[last].output == nil else {
                    fail("--page-output must follow a --page or --failing-page")
                }
                pages[last].output = URL(filePath: value)
            default: fail("unknown argument \(flag)")
            }
        }
        guard let output else { fail("--output is required") }

        let paths = pages.map { displayPath($0.url, root: root) }
        let names = SwiftGenerator.testIdentifiers(for: paths)
        var jobs: [SwiftGenerator.Job] = []
        var errors: [String] = []
        for ((url, expectingFailure, pageOutput), (path, name)) in zip(pages, zip(paths, names)) {
            guard pageOutput != nil else { fail("\(path) has no --page-output") }
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
        let files = [(output, SwiftGenerator.generateTests(jobs, options: options))]
            + zip(pages, jobs).map { ($0.0.output ?? output, SwiftGenerator.generatePage($0.1)) }
        for (url, text) in files {
            do {
                try writeIfChanged(Data(text.utf8), to: url)
            } catch {
                fail("cannot write \(url.path(percentEncoded: false)): \(error)")
            }
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
