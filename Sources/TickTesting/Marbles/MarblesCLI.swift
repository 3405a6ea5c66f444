import Foundation

/// The `marbles` command-line tool, runnable in-process (the executable only
/// prints the ``Result`` and exits with its code).
///
/// Exit codes: 0 success, 1 `diff` found differences, 2 bad input (an
/// unreadable diagram, an unknown command, a missing argument). On bad input
/// standard output stays empty and standard error has the message.
public enum MarblesCLI {
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

    /// Runs the tool with `arguments` (without the program name).
    public static func run(_ arguments: [String]) -> Result {
        guard let command = arguments.first else {
            return Result(standardOutput: usage + "\n" + demo())
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "explain": return explain(rest)
        case "render": return render(rest)
        case "diff": return diff(rest)
        case "help", "--help", "-h":
            if let topic = rest.first, let text = help[topic] { return Result(standardOutput: text) }
            return Result(standardOutput: usage)
        default:
            return Result(standardError: "marbles: unknown command \"\(command)\"\n\n" + usage, exitCode: 2)
        }
    }

    // MARK: Commands

    static func explain(_ arguments: [String]) -> Result {
        let options: Options
        switch parse(arguments, command: "explain", allowsOutput: false) {
        case .success(let parsed): options = parsed
        case .failure(let result): return result
        }
        if options.help { return Result(standardOutput: help["explain"] ?? usage) }
        guard options.diagrams.count == 1, let diagram = options.diagrams.first else {
            return usageError("explain takes exactly one diagram", command: "explain")
        }
        do {
            return Result(standardOutput: try explanation(of: diagram, options.temperature, frame: options.frame))
        } catch {
            return Result(standardError: error.description + "\n", exitCode: 2)
        }
    }

    static func render(_ arguments: [String]) -> Result {
        let options: Options
        switch parse(arguments, command: "render", allowsOutput: true) {
        case .success(let parsed): options = parsed
        case .failure(let result): return result
        }
        if options.help { return Result(standardOutput: help["render"] ?? usage) }
        guard !options.diagrams.isEmpty else { return usageError("render needs at least one diagram", command: "render") }
        let svg: String
        do {
            svg = try Marbles.svg(options.diagrams, options.temperature, frame: options.frame)
        } catch {
            return Result(standardError: error.description + "\n", exitCode: 2)
        }
        guard let output = options.output else { return Result(standardOutput: svg) }
        do {
            try svg.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            return Result(standardError: "marbles: cannot write \(output): \(error.localizedDescription)\n", exitCode: 2)
        }
        let rows = options.diagrams.count
        return Result(standardOutput: "wrote \(rows) row\(rows == 1 ? "" : "s") to \(output)\n")
    }

    static func diff(_ arguments: [String]) -> Result {
        let options: Options
        switch parse(arguments, command: "diff", allowsOutput: false) {
        case .success(let parsed): options = parsed
        case .failure(let result): return result
        }
        if options.help { return Result(standardOutput: help["diff"] ?? usage) }
        guard options.diagrams.count == 2 else {
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

    /// One line per event: `frame 2 (2ms): next(a)`.
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

    /// Known options are matched exactly; everything else is a diagram (so
    /// `--a--|` is a diagram). After `--`, everything is a diagram.
    static func parse(_ arguments: [String], command: String, allowsOutput: Bool) -> Parsed {
        var options = Options()
        var index = 0
        var onlyDiagrams = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyDiagrams {
                options.diagrams.append(argument)
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
            default:
                options.diagrams.append(argument)
            }
        }
        return .success(options)
    }

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
              --output <file>     write the SVG to this file
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
              --                  everything after this is a diagram

            """,
    ]

    /// A few diagrams explained: what `marbles` with no arguments shows after the usage.
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
