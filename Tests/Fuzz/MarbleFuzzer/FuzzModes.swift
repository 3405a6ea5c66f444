import Tick
import MarblesCommand
import TickTesting

/// What one fuzz run exercises, chosen with `--mode=NAME` (default `parse`).
enum FuzzMode: String, CaseIterable {
    /// The input is a diagram: parsing never crashes, errors point inside the
    /// diagram, and what parses prints back to the same events.
    case parse
    /// The input describes a timeline (times, values, a terminal event):
    /// printing never crashes and an exact print parses back to the same events.
    case roundtrip
    /// The input is two diagrams separated by a NUL byte: `Marbles.diff` never
    /// crashes, says "equal" exactly when the parsed events are equal, and
    /// always shows a caret when they differ.
    case diff
    /// The input is command-line arguments separated by NUL bytes, run through
    /// `MarblesCLI.run` in-process (file output and input arguments removed):
    /// never crashes, exits 0, 1 or 2, and prints an error exactly when it exits 2.
    case cli

    /// Removes a `--mode=NAME` argument from `arguments` and returns the mode,
    /// or `nil` (with `arguments` untouched) for an unknown name.
    static func take(from arguments: inout [String]) -> FuzzMode? {
        guard let index = arguments.firstIndex(where: { $0.hasPrefix("--mode=") }) else { return .parse }
        guard let mode = FuzzMode(rawValue: String(arguments[index].dropFirst("--mode=".count))) else { return nil }
        arguments.remove(at: index)
        return mode
    }

    /// Checks one input in this mode (a violated property traps).
    func check(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .parse: checkMarbleInput(bytes)
        case .roundtrip: checkPrintRoundTrip(bytes)
        case .diff: checkDiff(bytes)
        case .cli: checkCLI(bytes)
        }
    }
}

/// Reads fuzz bytes as small numbers; past the end it reads zeros.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    var isAtEnd: Bool { index >= bytes.count }
    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }
    mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int64(bitPattern: value)
    }
}

/// Builds a timeline from the bytes, prints it, and reads an exact print back.
func checkPrintRoundTrip(_ bytes: UnsafeRawBufferPointer) {
    var reader = ByteReader(bytes: bytes)
    let texts = ["a", "b", "c", "x", "1", "-", "|", "#", "(", " ", "^", "é", "ab", "long value", "", "🙂", "a\u{301}"]
    var events: [Recorded<Event<String>>] = []
    var frames = Int(Int8(bitPattern: reader.byte())) // may start before 0 (a hot timeline)
    while !reader.isAtEnd, events.count < 100_000 {
        let step = reader.byte()
        switch step % 8 {
        case 0: break // same time: a group
        case 1: frames = frames &+ Int(reader.int64() % 1_000_000_000)
        default: frames = frames &+ Int(step / 8)
        }
        let remainder: Duration = step % 16 == 15 ? .nanoseconds(Int64(reader.byte()) * 3_000 % 1_000_000) : .zero
        let time = TestTime(frames: frames, remainder: remainder)
        let kind = reader.byte()
        switch kind % 32 {
        case 0: events.append(.completed(time))
        case 1: events.append(.error(time, TestError()))
        default: events.append(.next(time, texts[Int(kind / 32) % texts.count] + (kind % 5 == 0 ? "\(kind)" : "")))
        }
    }
    let printed = Marbles.print(events)
    _ = printed.description
    guard printed.isExact else { return }
    let again: [Recorded<Event<String>>]
    do {
        again = try Marbles.parse(printed.diagram, printed.temperature, values: printed.values)
    } catch {
        fatalError("fuzz: exact print \(printed.diagram.debugDescription) does not parse: \(error)")
    }
    guard again == events else {
        fatalError("fuzz: exact print \(printed.diagram.debugDescription) reads back as other events:\n\(events)\n\(again)")
    }
}

/// Splits the bytes at the first NUL into an expected and an actual diagram.
func checkDiff(_ bytes: UnsafeRawBufferPointer) {
    let parts = Array(bytes).split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let expected = String(decoding: parts.first ?? [], as: UTF8.self)
    let actual = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : expected
    for temperature in [Marbles.Temperature.cold, .hot] {
        let left: [Recorded<Event<String>>]
        let right: [Recorded<Event<String>>]
        do {
            left = try Marbles.parse(expected, temperature)
            right = try Marbles.parse(actual, temperature)
        } catch {
            continue
        }
        let result: MarbleDiff
        do {
            result = try Marbles.diff(expected: expected, actual: actual, temperature)
        } catch {
            fatalError("fuzz: diff of two parsing diagrams threw: \(error)")
        }
        guard result.isEqual == (left == right) else {
            fatalError("fuzz: diff says equal=\(result.isEqual) for \(expected.debugDescription) / \(actual.debugDescription)")
        }
        guard result.isEqual || result.description.contains("^") else {
            fatalError("fuzz: diff without a caret: \(result.description)")
        }
        let direct = Marbles.diff(expected: left, actual: right)
        guard direct.isEqual == result.isEqual else { fatalError("fuzz: event diff disagrees with text diff") }
    }
}

/// Runs the CLI in-process with the NUL-separated arguments.
func checkCLI(_ bytes: UnsafeRawBufferPointer) {
    // Arguments that name files (or standard input) are dropped: the fuzzer
    // must never write or read files, nor wait on standard input.
    let fileArguments: Set<String> = ["-o", "--output", "-", "--file", "-f", "--input", "-i"]
    var arguments = Array(bytes).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
        .filter { !fileArguments.contains($0) && !$0.hasPrefix("--output=") && !$0.hasPrefix("--file=") }
    // Steer most inputs to a real command (by the first argument's first byte).
    let commands = ["explain", "render", "diff", "help", "--help"]
    if let first = arguments.first, let byte = first.utf8.first, byte < 0x20 {
        arguments[0] = commands[Int(byte) % commands.count]
    }
    let result = MarblesCLI.run(arguments)
    guard [0, 1, 2].contains(result.exitCode) else { fatalError("fuzz: exit code \(result.exitCode) for \(arguments)") }
    guard (result.exitCode == 2) == !result.standardError.isEmpty else {
        fatalError("fuzz: exit \(result.exitCode) with error text \(result.standardError.debugDescription) for \(arguments)")
    }
    if result.exitCode == 2, !result.standardOutput.isEmpty {
        fatalError("fuzz: bad input also printed to standard output for \(arguments)")
    }
}
