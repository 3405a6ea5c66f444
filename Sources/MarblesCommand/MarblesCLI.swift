import Foundation
import TickTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `marbles` command-line tool, runnable in-process (the executable only
/// prints the ``Result`` and exits with its code).
///
/// Exit codes: 0 success, 1 `diff` found differences, 2 bad input (an
/// unreadable diagram, an unknown command, a missing argument). On bad input
/// standard output stays empty and standard error has the message.
public enum MarblesCLI {
    // The command glue (reading arguments, composing messages, writing
    // files) is `@_optimize(none)`: it runs once per command, and optimizing
    // it cost every release build of TickTesting time for nothing. What a
    // command does per event (`Marbles.parse`, `print`, `diff`) and the byte
    // loops over its input are optimized as usual (Docs/Performance.md,
    // "Build time").

    /// What a command printed and how it ended.
    public struct Result: Equatable, Sendable {
        /// Text for standard output.
        public var standardOutput: String
        /// Text for standard error.
        public var standardError: String
        /// The process exit code.
        public var exitCode: Int32

        /// A result with the given output, error text and exit code.
        public init(standardOutput: String = "", standardError: String = "", exitCode: Int32 = 0) {
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.exitCode = exitCode
        }
    }

    /// Runs the tool with `arguments` (without the program name); a diagram
    /// given as `-` is read from `standardInput`.
    @_optimize(none)
    public static func run(_ arguments: [String], standardInput: () -> [UInt8] = readStandardInput) -> Result {
        guard let command = arguments.first else {
            return Result(standardOutput: usage + "\n" + demo())
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "explain": return explain(rest, input: standardInput)
        case "render": return render(rest, input: standardInput)
        case "diff": return diff(rest, input: standardInput)
        case "help", "--help", "-h":
            if let topic = rest.first, let text = help[topic] { return Result(standardOutput: text) }
            return Result(standardOutput: usage)
        default:
            return Result(standardError: "marbles: unknown command \"\(command)\"\n\n" + usage, exitCode: 2)
        }
    }

    /// All of standard input, as bytes.
    public static func readStandardInput() -> [UInt8] {
        Array(FileHandle.standardInput.readDataToEndOfFile())
    }

    /// The command-line arguments as the OS passed them, checked for
    /// invalid UTF-8 (which Swift would turn into U+FFFD): the error to print
    /// when one is not valid text, or nil.
    public static func checkEncoding(ofRawArguments arguments: [[UInt8]]) -> Result? {
        for (index, bytes) in arguments.enumerated() {
            if let offset = firstInvalidUTF8Offset(bytes) {
                return Result(
                    standardError: "marbles: argument \(index + 1) is not valid UTF-8 (byte \(offset + 1) of \(bytes.count)); a diagram must be UTF-8 text\n",
                    exitCode: 2)
            }
        }
        return nil
    }

    /// The offset of the first byte that is not part of valid UTF-8, or nil.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        // Find the shortest invalid prefix.
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    // MARK: Commands

    @_optimize(none)
    static func explain(_ arguments: [String], input: () -> [UInt8]) -> Result {
        var options: Options
        switch parse(arguments, command: "explain", allowsOutput: false) {
        case .success(let parsed): options = parsed
        case .failure(let result): return result
        }
        if options.help { return Result(standardOutput: help["explain"] ?? usage) }
        if let failure = resolve(&options, command: "explain", input: input) { return failure }
        guard options.diagrams.count == 1, let diagram = options.diagrams.first else {
            if options.diagrams.count > 1, let failure = unknownOption(options, command: "explain") { return failure }
            return usageError("explain takes exactly one diagram", command: "explain")
        }
        do {
            return Result(standardOutput: try explanation(of: diagram, options.temperature, frame: options.frame))
        } catch {
            return Result(standardError: error.description + "\n", exitCode: 2)
        }
    }

    @_optimize(none)
    static func render(_ arguments: [String], input: () -> [UInt8]) -> Result {
        var options: Options
        switch parse(arguments, command: "render", allowsOutput: true) {
        case .success(let parsed): options = parsed
        case .failure(let result): return result
        }
        if options.help { return Result(standardOutput: help["render"] ?? usage) }
        if let failure = resolve(&options, command: "render", input: input) { return failure }
        guard !options.diagrams.isEmpty else { return usageError("render needs at least one diagram", command: "render") }
        let svg: String
        do {
            svg = try Marbles.svg(options.diagrams, options.temperature, frame: options.frame)
        } catch {
            return Result(standardError: error.description + "\n", exitCode: 2)
        }
        guard let output = options.output, output != "-" else { return Result(standardOutput: svg) }
        if let refusal = write(svg, to: output) { return refusal }
        let rows = options.diagrams.count
        return Result(standardOutput: "wrote \(rows) row\(rows == 1 ? "" : "s") to \(output)\n")
    }

    @_optimize(none)
    static func diff(_ arguments: [String], input: () -> [UInt8]) -> Result {
        var options: Options
        switch parse(arguments, command: "diff", allowsOutput: false) {
        case .success(let parsed): options = parsed
        case .failure(let result): return result
        }
        if options.help { return Result(standardOutput: help["diff"] ?? usage) }
        if let failure = resolve(&options, command: "diff", input: input) { return failure }
        guard options.diagrams.count == 2 else {
            if options.diagrams.count > 2, let failure = unknownOption(options, command: "diff") { return failure }
            return usageError("diff takes two diagrams: the expected one, then the actual one", command: "diff")
        }
        do {
            let result = try Marbles.diff(
                expected: options.diagrams[0], actual: options.diagrams[1], options.temperature, frame: options.frame)
            return Result(standardOutput: result.description + "\n", exitCode: result.isEqual ? 0 : 1)
        } catch {
            return Result(standardError: error.description + "\n", exitCode: 2)
        }
    }

    /// Writes `text` to `path` only if that is a new file or an existing
    /// regular file (replaced atomically, keeping its permissions); refuses
    /// symbolic links, FIFOs, devices, directories and read-only files.
    @_optimize(none)
    static func write(_ text: String, to path: String) -> Result? {
        func refuse(_ why: String) -> Result {
            Result(standardError: "marbles render: refusing to write \(path): \(why)\n", exitCode: 2)
        }
        var info = stat()
        var mode: mode_t?
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK: return refuse("it is a symbolic link (write to its target, or use -o - and redirect)")
            case S_IFIFO: return refuse("it is a FIFO (use -o - and redirect)")
            case S_IFCHR, S_IFBLK: return refuse("it is a device (use -o - and redirect)")
            case S_IFDIR: return refuse("it is a directory")
            default: return refuse("it is not a regular file")
            }
            // The mode bits too: root may write anywhere, but a file nobody
            // may write is meant to stay as it is.
            guard access(path, W_OK) == 0, info.st_mode & 0o222 != 0 else { return refuse("it is read-only") }
            mode = info.st_mode & 0o7777
        } else if errno != ENOENT {
            return refuse(String(cString: strerror(errno)))
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).marbles-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            return Result(standardError: "marbles render: cannot write \(path): its folder is missing or not writable\n", exitCode: 2)
        }
        if let mode { _ = chmod(temporary, mode) }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = unlink(temporary)
            return Result(standardError: "marbles render: cannot write \(path): \(reason)\n", exitCode: 2)
        }
        return nil
    }

    /// One line per event: `frame 2 (2ms): next(a)`.
    @_optimize(none)
    static func explanation(
        of diagram: String, _ temperature: Marbles.Temperature, frame: Duration
    ) throws(MarbleError) -> String {
        let events: [Recorded<Event<String>>] = try Marbles.parse(diagram, temperature, frame: frame)
        if events.isEmpty { return "(no events)\n" }
        let attos = frame.totalAttoseconds
        return events.map { event in
            "\(Marbles.describe(event.time.attoseconds(frame: attos), frame: attos)): \(event.value)\n"
        }.joined()
    }

    // MARK: Arguments

    struct Options {
        enum Source {
            case text(String), standardInput, file(String)
        }
        var sources: [Source] = []
        var diagrams: [String] = []
        var temperature = Marbles.Temperature.cold
        var frame = Duration.milliseconds(1)
        var output: String?
        var help = false
    }

    enum Parsed {
        case success(Options)
        case failure(Result)
    }

    /// Reads the diagrams given as `-` (standard input) and `--file`.
    @_optimize(none)
    static func resolve(_ options: inout Options, command: String, input: () -> [UInt8]) -> Result? {
        var diagrams: [String] = []
        for source in options.sources {
            let bytes: [UInt8]
            let name: String
            switch source {
            case .text(let text):
                diagrams.append(text)
                continue
            case .standardInput:
                bytes = input()
                name = "standard input"
            case .file(let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    return Result(standardError: "marbles \(command): cannot read \(path)\n", exitCode: 2)
                }
                bytes = Array(data)
                name = path
            }
            if let offset = firstInvalidUTF8Offset(bytes) {
                return Result(
                    standardError: "marbles \(command): \(name) is not valid UTF-8 (byte \(offset + 1) of \(bytes.count)); a diagram must be UTF-8 text\n",
                    exitCode: 2)
            }
            var text = String(decoding: bytes, as: UTF8.self)
            while text.last?.isNewline == true { text.removeLast() }
            diagrams.append(text)
        }
        options.diagrams = diagrams
        return nil
    }

    /// An argument that looks like an option (`-x`, `--frames`) rather than
    /// a diagram, when the command got more diagrams than it takes.
    @_optimize(none)
    static func unknownOption(_ options: Options, command: String) -> Result? {
        for case .text(let text) in options.sources {
            let body = text.drop { $0 == "-" }
            let dashes = text.count - body.count
            if (1...2).contains(dashes), let first = body.first, first.isLetter,
                body.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), body.count == 1 || dashes == 2
            {
                return usageError(
                    "unknown option \(text) (a diagram that starts with \"-\" can go after \"--\")", command: command)
            }
        }
        return nil
    }

    /// Known options are matched exactly; everything else is a diagram (so
    /// `--a--|` is a diagram). After `--`, everything is a diagram.
    @_optimize(none)
    static func parse(_ arguments: [String], command: String, allowsOutput: Bool) -> Parsed {
        var options = Options()
        var index = 0
        var onlyDiagrams = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyDiagrams {
                options.sources.append(.text(argument))
                continue
            }
            switch argument {
            case "--": onlyDiagrams = true
            case "--help", "-h": options.help = true
            case "--hot": options.temperature = .hot
            case "--frame":
                guard index < arguments.count else { return .failure(usageError("--frame needs a duration, e.g. --frame 10ms", command: command)) }
                let value = arguments[index]
                index += 1
                let characters = Array(value)
                guard MarbleDuration.isCandidate(characters[...]) else {
                    return .failure(usageError("--frame \"\(value)\" is not a duration; write e.g. 10ms, 1.5s or 1m", command: command))
                }
                do throws(MarbleError) {
                    let attos = try MarbleDuration.parse(characters[...], start: 0, diagram: value)
                    guard attos > 0 else { throw MarbleError(.invalidFrame, at: 0, in: value) }
                    options.frame = Duration(totalAttoseconds: attos)
                } catch {
                    return .failure(Result(standardError: "marbles: bad --frame value\n" + error.description + "\n", exitCode: 2))
                }
            case "--output" where allowsOutput, "-o" where allowsOutput:
                guard index < arguments.count else { return .failure(usageError("--output needs a file name", command: command)) }
                options.output = arguments[index]
                index += 1
            case "-": options.sources.append(.standardInput)
            case "--file", "-f":
                guard index < arguments.count else {
                    return .failure(usageError("--file needs a file name", command: command))
                }
                options.sources.append(.file(arguments[index]))
                index += 1
            default:
                options.sources.append(.text(argument))
            }
        }
        return .success(options)
    }

    @_optimize(none)
    static func usageError(_ message: String, command: String) -> Result {
        Result(standardError: "marbles \(command): \(message)\n\n" + (help[command] ?? usage), exitCode: 2)
    }

    // MARK: Help texts

    /// The overview printed by `marbles`, `marbles help` and `marbles --help`.
    public static let usage = """
        usage: marbles <command> [options]

        commands:
          explain <diagram>      list each event of a diagram with its time
          render <diagram>...    draw diagrams as an SVG marble diagram
          diff <expected> <actual>
                                 compare two diagrams (exit code 1 when they differ)
          help [command]         show help

        Run "marbles <command> --help" for the options of a command.
        Exit codes: 0 ok, 1 diagrams differ, 2 bad input.

        """

    static let help: [String: String] = [
        "explain": """
            usage: marbles explain <diagram> [--hot] [--frame <duration>]

            Prints each event of the diagram with its time, one per line:
              frame 2 (2ms): next(a)

            options:
              --hot               read a hot diagram ("^" marks frame 0; earlier events are negative)
              --frame <duration>  the duration of one frame, e.g. 10ms (default 1ms)
              --file <path>, -f   read a diagram from a file (may be repeated)
              -                   read a diagram from standard input
              --                  everything after this is a diagram, even if it looks like an option

            """,
        "render": """
            usage: marbles render <diagram>... [--hot] [--frame <duration>] [--output <file.svg>]

            Draws the diagrams as one SVG marble diagram, one row per diagram on a shared
            time axis (e.g. an operator's input and output). Writes the SVG to standard
            output, or to the file given with --output (-o).

            options:
              --hot               read hot diagrams ("^" is drawn as the subscription point)
              --frame <duration>  the duration of one frame, e.g. 10ms (default 1ms)
              --output <file>     write the SVG to this file (a new or regular file only;
                                  replaced keeping its permissions); "-o -" is standard output
              --file <path>, -f   read a diagram from a file (may be repeated)
              -                   read a diagram from standard input
              --                  everything after this is a diagram

            """,
        "diff": """
            usage: marbles diff <expected> <actual> [--hot] [--frame <duration>]

            Prints the two diagrams aligned, a caret under the first difference and the
            list of differing events. Exit code 0 when they describe the same events,
            1 when they differ.

            options:
              --hot               read hot diagrams
              --frame <duration>  the duration of one frame, e.g. 10ms (default 1ms)
              --file <path>, -f   read a diagram from a file (may be repeated)
              -                   read a diagram from standard input
              --                  everything after this is a diagram

            """,
    ]

    /// A few diagrams explained: what `marbles` with no arguments shows after the usage.
    @_optimize(none)
    static func demo() -> String {
        let examples: [(String, Marbles.Temperature)] = [
            ("--a--(bc)--|", .cold), ("a 9ms b 1.5s c|", .cold), ("-a-^-b--|", .hot), ("--x--#", .cold),
        ]
        var text = "demo:\n"
        for (diagram, temperature) in examples {
            text += "\n$ marbles explain \(temperature == .hot ? "--hot " : "")\"\(diagram)\"\n"
            text += (try? explanation(of: diagram, temperature, frame: .milliseconds(1))) ?? ""
        }
        return text
    }
}
