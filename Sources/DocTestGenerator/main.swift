// DocTestGenerator: turns Markdown pages into Swift Testing tests (one test per
// page). Run by the DocTestsPlugin build-tool plugin; see Docs/DocsAsTests.md.
//
// Usage:
//   DocTestGenerator --root <package dir> [--import <module>]... [--trait <trait>]...
//                    (--page | --failing-page) <page.md> <output.swift> ...
//
// `--failing-page` marks a fixture page that must fail (wrapped in withKnownIssue).
// Prints how many blocks ran, were compile-only and were skipped; exits 1 with
// `page:line: error: ...` on a malformed page.

import DocTestKit
import Foundation

struct Job {
    let page: URL
    let output: URL
    let expectingFailure: Bool
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DocTestGenerator: error: \(message)\n".utf8))
    exit(1)
}

var root: URL?
var options = SwiftGenerator.Options()
var jobs: [Job] = []
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--root":
        guard let path = arguments.popFirst() else { fail("--root needs a directory") }
        root = URL(filePath: path, directoryHint: .isDirectory)
    case "--import":
        guard let module = arguments.popFirst() else { fail("--import needs a module name") }
        options.imports.append(module)
    case "--trait":
        guard let trait = arguments.popFirst() else { fail("--trait needs a trait expression") }
        options.traits.append(trait)
    case "--page", "--failing-page":
        guard let page = arguments.popFirst(), let output = arguments.popFirst() else {
            fail("\(flag) needs a Markdown file and an output file")
        }
        jobs.append(Job(page: URL(filePath: page), output: URL(filePath: output), expectingFailure: flag == "--failing-page"))
    default:
        fail("unknown argument \(flag)")
    }
}

/// The page's path relative to the package root (`Docs/Page.md`), or as given.
func displayPath(_ url: URL, root: URL?) -> String {
    let path = url.standardizedFileURL.path(percentEncoded: false)
    guard let root else { return path }
    var prefix = root.standardizedFileURL.path(percentEncoded: false)
    if !prefix.hasSuffix("/") { prefix += "/" }
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}

let names = SwiftGenerator.testIdentifiers(for: jobs.map { displayPath($0.page, root: root) })
var totals = (pages: 0, run: 0, compileOnly: 0, skipped: 0)
var errors: [String] = []
for (job, name) in zip(jobs, names) {
    let path = displayPath(job.page, root: root)
    do {
        guard let data = FileManager.default.contents(atPath: job.page.path(percentEncoded: false)) else {
            errors.append("\(path):1: error: cannot read the page")
            continue
        }
        let page = try MarkdownExtractor.extract(path: path, text: String(decoding: data, as: UTF8.self))
        let source = SwiftGenerator.generate(page, testName: name, options: options, expectingFailure: job.expectingFailure)
        try Data(source.utf8).write(to: job.output)
        if !job.expectingFailure {
            totals.pages += 1
            totals.run += page.count(.run)
            totals.compileOnly += page.count(.compileOnly)
            totals.skipped += page.count(.showOnly)
        }
    } catch let error as DocTestError {
        errors.append(error.description)
    } catch {
        errors.append("\(path):1: error: \(error)")
    }
}
if !errors.isEmpty {
    FileHandle.standardError.write(Data((errors.joined(separator: "\n") + "\n").utf8))
    exit(1)
}
print(
    "DocTestGenerator: \(totals.pages) page(s): \(totals.run) block(s) run, \(totals.compileOnly) compile-only, \(totals.skipped) skipped (show-only)."
)
