/// A `@Test` function written in a page's block, as it would sit in a test
/// file: the page declares it as a local function (the `@Test` attribute
/// removed) and calls it right after the block.
public struct TestFunction: Equatable, Sendable {
    /// The function's name.
    public var name: String
    /// The 1-based page line of its `@Test` attribute.
    public var line: Int
    /// The 1-based page line of the `}` that ends its body.
    public var endLine: Int
    /// Declared `async`.
    public var isAsync: Bool
    /// Declared `throws`.
    public var isThrowing: Bool
    /// Isolated to the main actor (`@MainActor`): calling it from the
    /// page's function takes `await`.
    public var isMainActor: Bool

    /// A test function named `name` whose `@Test` is at page line `line`
    /// and whose body ends at `endLine` (`line` if not known yet).
    public init(name: String, line: Int, endLine: Int? = nil, isAsync: Bool, isThrowing: Bool, isMainActor: Bool) {
        self.name = name
        self.line = line
        self.endLine = endLine ?? line
        self.isAsync = isAsync
        self.isThrowing = isThrowing
        self.isMainActor = isMainActor
    }

    /// Whether its call needs `await`.
    public var needsAwait: Bool { isAsync || isMainActor }

    /// The call the page makes after the block: `try await name()`, `name()`, …
    public var call: String { (isThrowing ? "try " : "") + (needsAwait ? "await " : "") + "\(name)()" }
}

/// Finds the `@Test` functions of a block and removes their `@Test`
/// attributes (replaced by spaces, so every line and column stays where it
/// was).
///
/// The rules, each reported at the page line when broken:
/// - `@Test` marks a function at the top level of the block (not inside a
///   type or another function): `@Test func name() { … }`, with any traits
///   or display name in its parentheses (ignored by the page, kept by a
///   user's test file), optionally `async`, `throws` and other attributes
///   such as `@MainActor`.
/// - The function takes no parameters: a parameterized test
///   (`@Test(arguments:)`) needs Swift Testing to call it.
public enum TestFunctionScanner {
    /// The block's lines with the `@Test` attributes blanked, and its test
    /// functions in order. `firstLine` is the page line of `lines[0]`.
    public static func scan(
        _ lines: [String], path: String, firstLine: Int
    ) throws(DocTestError) -> (lines: [String], functions: [TestFunction]) {
        var text = lines.map { Array($0) }
        var functions: [TestFunction] = []
        var depth = 0
        var row = 0
        while row < text.count {
            var column = 0
            var inString = false
            while column < text[row].count {
                let character = text[row][column]
                if inString {
                    if character == "\\" { column += 2; continue }
                    if character == "\"" { inString = false }
                    column += 1
                    continue
                }
                if character == "\"" {
                    inString = true
                } else if character == "/", column + 1 < text[row].count, text[row][column + 1] == "/" {
                    break  // a comment: the rest of the line
                } else if character == "{" {
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                    // The end of a test function's body.
                    if depth == 0, let last = functions.indices.last, functions[last].endLine == functions[last].line {
                        functions[last].endLine = firstLine + row
                    }
                } else if character == "@", isWord("@Test", at: column, in: text[row]) {
                    let pageLine = firstLine + row
                    guard depth == 0 else {
                        throw DocTestError(
                            path: path, line: pageLine,
                            message: "a @Test function of a page must be at the top level of its block (not inside a type or a function): the page calls it after the block. Write `@Test func name() { … }` on its own.")
                    }
                    let function = try parseTest(&text, row: row, column: column, path: path, firstLine: firstLine)
                    functions.append(function)
                    column += 5
                    continue
                }
                column += 1
            }
            row += 1
        }
        return (text.map { String($0) }, functions)
    }

    /// Whether `word` starts at `column` of `line` and is not the start of
    /// a longer identifier.
    private static func isWord(_ word: String, at column: Int, in line: [Character]) -> Bool {
        let characters = Array(word)
        guard column + characters.count <= line.count, Array(line[column..<column + characters.count]) == characters
        else { return false }
        let after = column + characters.count
        return after == line.count || !(line[after].isLetter || line[after].isNumber || line[after] == "_")
    }

    /// Parses the `@Test` attribute at `row`/`column` and the function it
    /// marks; blanks the attribute.
    private static func parseTest(
        _ text: inout [[Character]], row: Int, column: Int, path: String, firstLine: Int
    ) throws(DocTestError) -> TestFunction {
        let pageLine = firstLine + row
        // A cursor over the block's characters, lines joined by "\n".
        var position = (row: row, column: column)
        func peek() -> Character? {
            var (r, c) = position
            while r < text.count {
                if c < text[r].count { return text[r][c] }
                if c == text[r].count { return "\n" }
                r += 1
                c = 0
            }
            return nil
        }
        func advance() {
            if position.column < text[position.row].count {
                position.column += 1
            } else {
                position = (position.row + 1, 0)
            }
        }
        func blankAndAdvance() {
            if position.column < text[position.row].count { text[position.row][position.column] = " " }
            advance()
        }
        func skipSpace() {
            while let character = peek(), character == " " || character == "\t" || character == "\n" { advance() }
        }
        // Skips a balanced parenthesized group (strings included), blanking it if asked.
        func skipGroup(blank: Bool) -> String {
            var depth = 0
            var inString = false
            var collected = ""
            while let character = peek() {
                collected.append(character)
                if blank { blankAndAdvance() } else { advance() }
                if inString {
                    if character == "\\", let next = peek() {
                        collected.append(next)
                        if blank { blankAndAdvance() } else { advance() }
                    } else if character == "\"" {
                        inString = false
                    }
                    continue
                }
                switch character {
                case "\"": inString = true
                case "(": depth += 1
                case ")":
                    depth -= 1
                    if depth == 0 { return collected }
                default: break
                }
            }
            return collected
        }
        func identifier() -> String {
            var name = ""
            while let character = peek(), character.isLetter || character.isNumber || character == "_" || character == "`" {
                name.append(character)
                advance()
            }
            return name
        }

        // The attribute: `@Test`, then its parenthesized arguments if any.
        for _ in 0..<5 { blankAndAdvance() }
        var probe = position
        while probe.row < text.count, probe.column < text[probe.row].count,
            text[probe.row][probe.column] == " " || text[probe.row][probe.column] == "\t"
        {
            probe.column += 1
        }
        if probe.row < text.count, probe.column < text[probe.row].count, text[probe.row][probe.column] == "(" {
            while position != probe { blankAndAdvance() }
            let arguments = skipGroup(blank: true)
            if arguments.contains("arguments:") {
                throw DocTestError(
                    path: path, line: pageLine,
                    message: "a parameterized @Test (arguments:) cannot run in a page: only Swift Testing can call it with its arguments. Write a test without parameters, or show it in a ```swift show-only block and say why.")
            }
        }
        // Attributes written before `@Test` (on its line, or on lines of
        // attributes just above it), then the others, then `func`.
        var isMainActor = String(text[row][..<column]).contains("@MainActor")
        var above = row - 1
        while above >= 0, text[above].drop(while: { $0 == " " || $0 == "\t" }).first == "@" {
            if String(text[above]).contains("@MainActor") { isMainActor = true }
            above -= 1
        }
        skipSpace()
        while peek() == "@" {
            advance()
            let attribute = identifier()
            if attribute == "MainActor" { isMainActor = true }
            if peek() == "(" { _ = skipGroup(blank: false) }
            skipSpace()
        }
        // Modifiers a test function may have.
        while true {
            let saved = position
            let word = identifier()
            if ["nonisolated", "private", "fileprivate", "internal", "public", "static"].contains(word) {
                skipSpace()
                continue
            }
            position = saved
            break
        }
        guard identifier() == "func" else {
            throw DocTestError(
                path: path, line: pageLine,
                message: "@Test in a page must mark a function: `@Test func name() { … }` (a @Suite type cannot run in a page; write its tests as functions).")
        }
        skipSpace()
        let name = identifier()
        guard !name.isEmpty else {
            throw DocTestError(path: path, line: pageLine, message: "cannot read the name of this @Test function.")
        }
        skipSpace()
        let parameters = peek() == "(" ? skipGroup(blank: false) : ""
        guard parameters.dropFirst().dropLast().allSatisfy(\.isWhitespace) else {
            throw DocTestError(
                path: path, line: pageLine,
                message: "the @Test function `\(name)` takes parameters: a page calls its tests with none. Write a test without parameters, or show it in a ```swift show-only block and say why.")
        }
        // The effects, up to the body's `{`.
        var effects = ""
        while let character = peek(), character != "{" {
            effects.append(character)
            advance()
        }
        let words = effects.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        return TestFunction(
            name: name, line: pageLine, endLine: nil, isAsync: words.contains("async"), isThrowing: words.contains("throws"),
            isMainActor: isMainActor)
    }
}
