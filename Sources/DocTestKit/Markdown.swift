/// How a fenced ```` ```swift ```` block of a documentation page is treated.
public enum BlockKind: String, Equatable, Sendable {
    /// ```` ```swift ````: compiled and run, in page order.
    case run
    /// ```` ```swift no-run ````: compiled but never run.
    case compileOnly = "no-run"
    /// ```` ```swift show-only ````: neither compiled nor run (code that cannot
    /// build on Linux, such as UIKit); counted as skipped.
    case showOnly = "show-only"
    /// ```` ```swift file-scope ````: declarations compiled at the top level of
    /// the page's file, outside the function that runs the page (never run
    /// themselves): for what a function body cannot hold, such as an
    /// `@Observable` class (its macro adds an extension).
    case fileScope = "file-scope"
}

/// An ```` ```output ```` block: the exact text the Swift block before it prints.
public struct OutputBlock: Equatable, Sendable {
    /// The 1-based page line of the opening fence.
    public var fenceLine: Int
    /// The lines between the fences, indentation of the fence removed.
    public var lines: [String]

    public init(fenceLine: Int, lines: [String]) {
        self.fenceLine = fenceLine
        self.lines = lines
    }

    /// What the Swift block must print: every line followed by a newline
    /// (what `print` writes); empty for an empty block.
    public var expectedText: String { lines.map { $0 + "\n" }.joined() }
}

/// One fenced ```` ```swift ```` block of a page.
public struct CodeBlock: Equatable, Sendable {
    /// Run, compile-only or show-only.
    public var kind: BlockKind
    /// The 1-based page line of the opening fence; the code starts on the next line.
    public var fenceLine: Int
    /// The code lines, indentation of the fence removed.
    public var lines: [String]
    /// The output block that directly follows, if any (only for ``BlockKind/run``).
    public var output: OutputBlock?
    /// The `@Test` functions the block declares, in order: a run block's
    /// are called right after it (see ``TestFunctionScanner``).
    public var testFunctions: [TestFunction]

    public init(
        kind: BlockKind, fenceLine: Int, lines: [String], output: OutputBlock? = nil, testFunctions: [TestFunction] = []
    ) {
        self.kind = kind
        self.fenceLine = fenceLine
        self.lines = lines
        self.output = output
        self.testFunctions = testFunctions
    }

    /// The 1-based page line of the first code line.
    public var firstCodeLine: Int { fenceLine + 1 }
}

/// The Swift examples of one Markdown page, in page order.
public struct DocPage: Equatable, Sendable {
    /// The page's path as shown in messages, relative to the package (`Docs/Schedulers.md`).
    public var path: String
    /// Its ```` ```swift ```` blocks, in order.
    public var blocks: [CodeBlock]

    public init(path: String, blocks: [CodeBlock]) {
        self.path = path
        self.blocks = blocks
    }

    /// How many blocks of `kind` the page has.
    public func count(_ kind: BlockKind) -> Int { blocks.filter { $0.kind == kind }.count }
}

/// A problem in a page that stops generation: it names the page and line.
public struct DocTestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The page's path.
    public var path: String
    /// The 1-based line the problem is on.
    public var line: Int
    /// What is wrong and how to fix it.
    public var message: String

    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `Docs/Page.md:12: error: ...`, the form compilers use, so editors link it.
    public var description: String { "\(path):\(line): error: \(message)" }
}

/// Finds the Swift examples and their expected outputs in a Markdown page.
///
/// Fences follow CommonMark: three or more backticks or tildes, optionally
/// indented (the indentation is removed from the block's lines); a block is
/// closed by a fence of the same character at least as long. CRLF, CR and LF
/// line endings are all accepted. A fence left open is an error, because it
/// would silently swallow the rest of the page.
public enum MarkdownExtractor {
    /// The Swift blocks of `text`, which is the page at `path`.
    public static func extract(path: String, text: String) throws(DocTestError) -> DocPage {
        // `Character` treats "\r\n" as one newline, so this handles CRLF too.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        var blocks: [CodeBlock] = []
        // Index into `blocks` of a run/no-run block an output block may still follow.
        var pairable: Int?
        var index = 0
        while index < lines.count {
            let lineNumber = index + 1
            guard let fence = Fence(parsing: lines[index]) else {
                if !lines[index].allSatisfy(\.isWhitespace) { pairable = nil }
                index += 1
                continue
            }
            // Collect the block's lines up to the closing fence.
            var content: [String] = []
            var closed = false
            index += 1
            while index < lines.count {
                if fence.isClosed(by: lines[index]) {
                    closed = true
                    break
                }
                content.append(fence.removingIndentation(lines[index]))
                index += 1
            }
            guard closed else {
                throw DocTestError(
                    path: path, line: lineNumber,
                    message: "the \(fence.marker)\(fence.info) fence opened here is never closed; close it with \(fence.marker) (otherwise it swallows the rest of the page).")
            }
            index += 1  // past the closing fence

            switch fence.language {
            case "swift":
                let kind = try blockKind(fence, path: path, line: lineNumber)
                if kind == .compileOnly || kind == .showOnly, !content.contains(where: isComment) {
                    throw DocTestError(
                        path: path, line: lineNumber,
                        message: "a ```swift \(kind.rawValue) block must say why it is not run, in a // comment inside the block.")
                }
                // A show-only block is never compiled: its `@Test`s stay as written.
                let tests =
                    kind == .showOnly
                    ? [] : try TestFunctionScanner.scan(content, path: path, firstLine: lineNumber + 1).functions
                blocks.append(CodeBlock(kind: kind, fenceLine: lineNumber, lines: content, testFunctions: tests))
                pairable = blocks.count - 1
            case "output":
                guard fence.options.isEmpty else {
                    throw DocTestError(
                        path: path, line: lineNumber,
                        message: "an output fence takes no options (found `\(fence.info)`); write ```output.")
                }
                guard let target = pairable, blocks[target].output == nil else {
                    throw DocTestError(
                        path: path, line: lineNumber,
                        message: "an ```output block must directly follow a ```swift block (only blank lines between); this one follows none, so it would never be checked.")
                }
                guard blocks[target].kind == .run else {
                    throw DocTestError(
                        path: path, line: lineNumber,
                        message: "this ```output block follows a ```swift \(blocks[target].kind.rawValue) block (line \(blocks[target].fenceLine)), which is not run, so its output cannot be checked.")
                }
                blocks[target].output = OutputBlock(fenceLine: lineNumber, lines: content)
                pairable = nil
            default:
                pairable = nil
            }
        }
        return DocPage(path: path, blocks: blocks)
    }

    private static func blockKind(_ fence: Fence, path: String, line: Int) throws(DocTestError) -> BlockKind {
        switch fence.options {
        case []: return .run
        case ["no-run"]: return .compileOnly
        case ["show-only"]: return .showOnly
        case ["file-scope"]: return .fileScope
        default:
            throw DocTestError(
                path: path, line: line,
                message: "unknown swift fence options `\(fence.options.joined(separator: " "))`; use ```swift, ```swift no-run (compile only), ```swift show-only (not compiled) or ```swift file-scope (declarations at file scope).")
        }
    }

    private static func isComment(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.hasPrefix("//") || trimmed.hasPrefix("/*")
    }
}

/// An opening code fence: indentation, marker and info string.
struct Fence {
    let indentation: Int
    let character: Character
    let length: Int
    let info: String

    var marker: String { String(repeating: character, count: length) }
    var words: [String] { info.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) }
    var language: String { words.first ?? "" }
    var options: [String] { Array(words.dropFirst()) }

    init?(parsing line: String) {
        let indentation = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(indentation)
        guard let first = rest.first, first == "`" || first == "~" else { return nil }
        let length = rest.prefix { $0 == first }.count
        guard length >= 3 else { return nil }
        let info = rest.dropFirst(length).trimmingWhitespace()
        // CommonMark: a backtick fence's info string may not contain a backtick.
        if first == "`" && info.contains("`") { return nil }
        self.indentation = indentation
        self.character = first
        self.length = length
        self.info = info
    }

    func isClosed(by line: String) -> Bool {
        let rest = line.drop { $0 == " " }
        let run = rest.prefix { $0 == character }.count
        return run >= length && rest.dropFirst(run).allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// Removes up to the fence's indentation of leading spaces.
    func removingIndentation(_ line: String) -> String {
        let spaces = min(indentation, line.prefix { $0 == " " }.count)
        return String(line.dropFirst(spaces))
    }
}

extension Substring {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
