import Testing
import Tick
@_spi(TickInternals) import TickTesting

/// Random timelines that the marble language can write: events in time
/// order, same-time events as one group that takes its text width, a `^` at
/// 0 when some events are negative, nothing after a terminal event.
struct TimelineGenerator<Element> {
    var rng: SeededGenerator
    let pool: [Element]
    let frame: Int128

    private mutating func gap() -> Int128 {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...2: return 0
        case 3...6: return Int128(Int.random(in: 1...20, using: &rng)) * frame
        case 7: return Int128(Int.random(in: 21...100_000, using: &rng)) * frame
        default:
            // Not a whole number of frames: any attoseconds.
            return Int128(Int.random(in: 0...50, using: &rng)) * frame
                + Int128(Int64.random(in: 1...Int64(clamping: frame - 1), using: &rng))
        }
    }

    private mutating func group() -> [Event<Element>] {
        let size = Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 2...3, using: &rng) : 1
        return (0..<size).map { _ in .next(pool.randomElement(using: &rng) ?? pool[0]) }
    }

    private func time(_ attos: Int128) -> TestTime {
        var frames = attos / frame
        var rest = attos % frame
        if rest < 0 { (frames, rest) = (frames - 1, rest + frame) }
        return TestTime(frames: Int(frames), remainder: Duration(totalAttoseconds: rest))
    }

    private static func width(_ count: Int) -> Int128 { count == 1 ? 1 : Int128(count) + 2 }

    mutating func next() -> [Recorded<Event<Element>>] {
        var events: [Recorded<Event<Element>>] = []
        var cursor: Int128 = 0
        if Int.random(in: 0..<4, using: &rng) == 0 {
            // Hot: a few groups before 0, then the "^" at 0 (alone or with a group).
            var start: Int128 = 0
            var widths: [(Int128, [Event<Element>])] = []
            var span: Int128 = 0
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let g = group()
                let gap = widths.isEmpty ? 0 : gap()
                span += gap
                widths.append((span, g))
                span += Self.width(g.count) * frame
            }
            start = -(span + gap())
            for (offset, g) in widths {
                for event in g { events.append(Recorded(time: time(start + offset), value: event)) }
            }
            if Bool.random(using: &rng) {
                let g = group()
                for event in g { events.append(Recorded(time: 0, value: event)) }
                cursor = (Self.width(g.count + 1)) * frame
            } else {
                cursor = frame
            }
        }
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            let at = cursor + gap()
            let g = group()
            for event in g { events.append(Recorded(time: time(at), value: event)) }
            cursor = at + Self.width(g.count) * frame
        }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: events.append(Recorded(time: time(cursor + gap()), value: .completed))
        case 1: events.append(Recorded(time: time(cursor + gap()), value: .error(TestError(Int.random(in: 0...3, using: &rng)))))
        default: break
        }
        return events
    }
}

@Suite struct MarblePropertyTests {
    private func roundTrip<Element: Equatable>(
        _ pool: [Element], frame: Duration, count: Int, seed: UInt64
    ) -> (checked: Int, failures: [String]) {
        var generator = TimelineGenerator(rng: SeededGenerator(seed: seed), pool: pool, frame: frame.totalAttoseconds)
        var failures: [String] = []
        for _ in 0..<count {
            let timeline = generator.next()
            let printed = Marbles.print(timeline, frame: frame)
            let reread: [Recorded<Event<Element>>]? = try? Marbles.parse(
                printed.diagram, printed.temperature, values: printed.values, error: printed.error ?? TestError(),
                frame: frame)
            if reread != timeline || !printed.isExact, failures.count < 5 {
                failures.append("\(timeline) printed as \(printed) read back as \(String(describing: reread))")
            }
        }
        return (count, failures)
    }

    /// parse(print(t)) == t for 12 000 random timelines (seeded, so reproducible).
    @Test func printThenParseGivesTheSameTimeline() {
        var total = 0
        let runs: [(checked: Int, failures: [String])] = [
            roundTrip(["a", "b", "x", "1", "7", "🙂", "m", "s", "é"], frame: .milliseconds(1), count: 4000, seed: 1),
            roundTrip([1, 22, 333, -4, 5], frame: .milliseconds(10), count: 3000, seed: 2),
            roundTrip(["hello", "a", "-", "|", " "], frame: .microseconds(250), count: 3000, seed: 3),
            roundTrip([Character("q"), "ß", "#"], frame: .milliseconds(1), count: 2000, seed: 4),
        ]
        for run in runs {
            total += run.checked
            #expect(run.failures.isEmpty, "\(run.failures.joined(separator: "\n"))")
        }
        #expect(total >= 10_000)
    }

    /// 100 000 random strings over the marble alphabet, read in every mode:
    /// each either parses or throws an error whose position is inside the
    /// diagram (or at its end) and whose message has a caret line.
    @Test func randomStringsNeverCrash() {
        let alphabet: [Character] = [
            "-", "-", "-", " ", " ", "a", "b", "(", ")", "|", "#", "^", "!", "1", "0", "5", ".", "m", "s", "🙂", "\t",
        ]
        var rng = SeededGenerator(seed: 42)
        var parsed = 0
        var thrown = 0
        var badPositions: [String] = []
        for index in 0..<100_000 {
            let length = Int.random(in: 0...14, using: &rng)
            let diagram = String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "-" })
            let frame: Duration = index % 7 == 0 ? .microseconds(3) : .milliseconds(1)
            let result: Result<Void, MarbleError>
            switch index % 4 {
            case 0: result = Result { () throws(MarbleError) in _ = try Marbles.parse(diagram, .cold, frame: frame) as [Recorded<Event<String>>] }
            case 1: result = Result { () throws(MarbleError) in _ = try Marbles.parse(diagram, .hot, frame: frame) as [Recorded<Event<String>>] }
            case 2: result = Result { () throws(MarbleError) in _ = try Marbles.parseSubscription(diagram, frame: frame) }
            default: result = Result { () throws(MarbleError) in _ = try Marbles.time(diagram, frame: frame) }
            }
            switch result {
            case .success: parsed += 1
            case .failure(let error):
                thrown += 1
                if !(0...diagram.count).contains(error.position) || error.diagram != diagram
                    || !error.description.contains("^\n"), badPositions.count < 5
                {
                    badPositions.append("\(diagram.debugDescription): \(error)")
                }
            }
        }
        #expect(parsed + thrown == 100_000)
        // Both outcomes occur, so the alphabet exercises the errors and the happy path.
        #expect(parsed > 10_000)
        #expect(thrown > 10_000)
        #expect(badPositions.isEmpty, "\(badPositions)")
    }

    /// Long and pathological inputs: deep digit strings, many groups.
    @Test func pathologicalInputsEndWithAnError() {
        let cases = [
            String(repeating: "9", count: 5000) + "ms a",
            "0." + String(repeating: "0", count: 5000) + "1s",
            "1." + String(repeating: "0", count: 5000) + "s a",
            String(repeating: "(", count: 1000),
            String(repeating: ")", count: 1000),
            String(repeating: "^", count: 1000),
            String(repeating: "1000000000000000s ", count: 100),
        ]
        for diagram in cases {
            let result = Result { () throws(MarbleError) in _ = try Marbles.parse(diagram, .hot) as [Recorded<Event<String>>] }
            if case .failure(let error) = result {
                #expect((0...diagram.count).contains(error.position))
            }
        }
        // A decimal with many trailing zeros is still exact.
        #expect((try? Marbles.parse("1." + String(repeating: "0", count: 5000) + "s a") as [Recorded<Event<String>>])
            == [.next(1000, "a")])
    }

    /// The scanner reads ASCII text (without a carriage return) on its UTF-8
    /// bytes and everything else as `Character`s. For 50 000 random ASCII
    /// strings, read in every mode at several frame lengths, both ways give
    /// the same markers, times and positions, or the same error at the same
    /// position.
    @Test func byteScanAgreesWithCharacterScan() {
        let alphabet: [Character] = [
            "-", "-", "-", " ", " ", "a", "b", "Z", "(", ")", "|", "#", "^", "!", "1", "0", "5", ".", "m", "s",
            "\t", "\n", "~", "\u{0B}",
        ]
        let frames: [Duration] = [.milliseconds(1), .microseconds(3), .seconds(7), .seconds(400_000_000_000_000)]
        var rng = SeededGenerator(seed: 7)
        var mismatches: [String] = []
        for index in 0..<50_000 {
            let length = Int.random(in: 0...16, using: &rng)
            let diagram = String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "-" })
            let frame = frames[index % frames.count]
            let fast = Marbles.scanReport(diagram, frame: frame, asCharacters: false)
            let slow = Marbles.scanReport(diagram, frame: frame, asCharacters: true)
            if fast != slow, mismatches.count < 5 {
                mismatches.append("\(diagram.debugDescription):\n\(fast)\n!=\n\(slow)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
    }

    /// What `parse` and `parseThroughMarkerArray` make of `diagram`, each as
    /// text (the events, or the error's kind, position and message), through
    /// `values` when given, as `String` markers otherwise.
    static func bothPaths(
        _ diagram: String, _ temperature: Marbles.Temperature, values: [Character: Int]?, frame: Duration
    ) -> (parsed: String, throughMarkerArray: String) {
        func outcome<Element: Equatable>(_ read: () throws(MarbleError) -> [Recorded<Event<Element>>]) -> String {
            do throws(MarbleError) {
                return "\(try read())"
            } catch {
                return "error \(error.kind) at \(error.position): \(error.description)"
            }
        }
        guard let values else {
            return (
                outcome { () throws(MarbleError) -> [Recorded<Event<String>>] in
                    try Marbles.parse(diagram, temperature, frame: frame)
                },
                outcome { () throws(MarbleError) -> [Recorded<Event<String>>] in
                    try Marbles.parseThroughMarkerArray(diagram, temperature, frame: frame)
                }
            )
        }
        return (
            outcome { () throws(MarbleError) in try Marbles.parse(diagram, temperature, values: values, frame: frame) },
            outcome { () throws(MarbleError) in
                try Marbles.parseThroughMarkerArray(diagram, temperature, values: values, frame: frame)
            }
        )
    }

    /// `Marbles.parse` makes each event as the scan finds its marker, and
    /// keeps a value or time error until the scan has ended (a structural
    /// error anywhere comes first). For 20 000 random strings, read cold and
    /// hot, as `String` markers and through a values map that lacks one
    /// marker, at frames down to one attosecond (where long times leave the
    /// range of `TestTime`), it gives the same events, or the same error at
    /// the same position, as reading all the markers first.
    @Test func parseAgreesWithTheMarkerArrayPath() {
        let alphabet: [Character] = [
            "-", "-", "-", " ", " ", "a", "b", "c", "(", ")", "|", "#", "^", "!", "1", "0", "5", ".", "m", "s", "🙂",
            "\t",
        ]
        let frames: [Duration] = [
            .milliseconds(1), .microseconds(3), .seconds(7), Duration(totalAttoseconds: 1), Duration(totalAttoseconds: 3),
        ]
        // No entry for "c": a marker without a value.
        let values: [Character: Int] = ["a": 1, "b": 2, "1": 10, "0": 0, "5": 5, ".": 9, "m": 7, "s": 8, "🙂": 6]
        var rng = SeededGenerator(seed: 11)
        var mismatches: [String] = []
        var seen = (events: 0, missingValue: 0, timeOutOfRange: 0, structural: 0)
        for index in 0..<20_000 {
            let length = Int.random(in: 0...16, using: &rng)
            var diagram = String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "-" })
            // Sometimes a duration, which only whitespace may surround.
            if index % 5 == 0 { diagram = "a 1000000000000000s b " + diagram }
            let frame = frames[index % frames.count]
            let temperature: Marbles.Temperature = index % 2 == 0 ? .cold : .hot
            let (streamed, arrayed) = Self.bothPaths(
                diagram, temperature, values: index % 3 == 0 ? values : nil, frame: frame)
            if streamed.hasPrefix("error missingValue") {
                seen.missingValue += 1
            } else if streamed.hasPrefix("error timeOutOfRange") {
                seen.timeOutOfRange += 1
            } else if streamed.hasPrefix("error") {
                seen.structural += 1
            } else if streamed != "[]" {
                seen.events += 1
            }
            if streamed != arrayed, mismatches.count < 5 {
                mismatches.append("\(diagram.debugDescription) \(temperature) \(frame):\n\(streamed)\n!=\n\(arrayed)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        // Not vacuous: both results and errors occur, among them the two
        // kinds found after the scan (a missing value, a time out of range).
        #expect(seen.events > 1000 && seen.structural > 1000, "\(seen)")
        #expect(seen.missingValue > 100 && seen.timeOutOfRange > 100, "\(seen)")
    }

    /// `parse` reads the common diagram (printable ASCII, no whitespace, no
    /// `^` or `!`, no error) in whole frames without the general scan, and
    /// falls back to it for everything else. For 20 000 random strings made
    /// mostly of what that path covers, with now and then a character it
    /// does not (a space, `^`, `!`, an emoji, a duration unit at the end),
    /// cold and hot, as `String` markers and through a values map lacking
    /// one marker, at frames from one attosecond to ones so long that the
    /// text passes the time limit: the same events, or the same error at the
    /// same position, as reading all the markers first. Not vacuous: both
    /// paths are taken many times, and a marker without a value is found on
    /// text the fast path covers (it then falls back).
    @Test func wholeFramePathAgreesWithTheMarkerArrayPath() {
        let alphabet: [Character] = [
            "-", "-", "-", "-", "a", "b", "c", "x", "(", ")", "(", ")", "|", "#", "1", "7", "~", "\"",
        ]
        let rare: [Character] = [" ", "^", "!", "🙂", "s", "m", "\t", "5", "."]
        let frames: [Duration] = [
            .milliseconds(1), Duration(totalAttoseconds: 1), .seconds(7), .seconds(100_000_000_000_000),
            Duration(totalAttoseconds: Int128(Int64.max) + 1),
        ]
        let values: [Character: Int] = ["a": 1, "b": 2, "x": 3, "1": 10, "7": 7, "~": 0, "\"": 4, "🙂": 6, "5": 5]
        var rng = SeededGenerator(seed: 25)
        var mismatches: [String] = []
        var seen = (covered: 0, coveredWithEvents: 0, coveredMissingValue: 0, general: 0, generalErrors: 0)
        for index in 0..<20_000 {
            let length = Int.random(in: 0...14, using: &rng)
            var characters = (0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "-" }
            if index % 4 == 0, !characters.isEmpty {
                characters[Int.random(in: 0..<characters.count, using: &rng)] = rare.randomElement(using: &rng) ?? " "
            }
            let diagram = String(characters)
            let frame = frames[index % frames.count]
            let temperature: Marbles.Temperature = index % 2 == 0 ? .cold : .hot
            let (streamed, arrayed) = Self.bothPaths(
                diagram, temperature, values: index % 3 == 0 ? values : nil, frame: frame)
            if Marbles.readsInWholeFrames(diagram, temperature, frame: frame) {
                seen.covered += 1
                if streamed.hasPrefix("error missingValue") {
                    seen.coveredMissingValue += 1
                } else if streamed != "[]" {
                    seen.coveredWithEvents += 1
                }
            } else {
                seen.general += 1
                if streamed.hasPrefix("error") { seen.generalErrors += 1 }
            }
            if streamed != arrayed, mismatches.count < 5 {
                mismatches.append("\(diagram.debugDescription) \(temperature) \(frame):\n\(streamed)\n!=\n\(arrayed)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        #expect(seen.coveredWithEvents > 2000 && seen.coveredMissingValue > 100, "\(seen)")
        #expect(seen.general > 2000 && seen.generalErrors > 1000, "\(seen)")
    }

    /// The whole-frame path gives frames and markers exactly: a group takes
    /// the frame of its `(`, and the frames after it count its width.
    @Test func wholeFramePathReadsGroupsAndTerminals() throws {
        #expect(Marbles.readsInWholeFrames("-a-b-(cd)-|", .cold))
        let events = try Marbles.parse("-a-b-(cd)-|") as [Recorded<Event<String>>]
        #expect(events == [.next(1, "a"), .next(3, "b"), .next(5, "c"), .next(5, "d"), .completed(10)])
        let failing = try Marbles.parse("(ab)#", .hot, values: ["a": 1, "b": 2]) as [Recorded<Event<Int>>]
        #expect(failing.map(\.time) == [0, 0, 4])
        #expect(failing.map(\.value.element) == [1, 2, nil] && failing.last?.value.error != nil)
        // Not covered: whitespace, a subscription point, a trailing unit, an error.
        for diagram in ["-a -|", "^-a|", "-a-5ms", "a|b", "(a", "a)", "((a))"] {
            #expect(!Marbles.readsInWholeFrames(diagram, .hot), "\(diagram)")
        }
    }

    /// Text that is not all ASCII takes the `Character` path: value markers
    /// of any `Character` (emoji, accented letters, a flag of two scalars),
    /// positions counted in `Character`s, and "\r\n" one whitespace.
    @Test func nonASCIIDiagramsAreReadAsCharacters() throws {
        let events = try Marbles.parse("-🙂-é-(🇫🇷x)-|") as [Recorded<Event<String>>]
        #expect(events == [.next(1, "🙂"), .next(3, "é"), .next(5, "🇫🇷"), .next(5, "x"), .completed(10)])
        let characters = try Marbles.parse("a-🙂", values: [Character("a"): Character("a"), "🙂": "🙂"]) as [Recorded<Event<Character>>]
        #expect(characters == [.next(0, Character("a")), .next(2, Character("🙂"))])
        let crlf = try Marbles.parse("a\r\n10ms b") as [Recorded<Event<String>>]
        #expect(crlf == [.next(0, "a"), .next(11, "b")])
        let error = Result { () throws(MarbleError) in _ = try Marbles.parse("🙂é-^") as [Recorded<Event<String>>] }
        guard case .failure(let failure) = error else {
            Issue.record("expected an error")
            return
        }
        #expect(failure.kind == .subscriptionPointInColdDiagram)
        #expect(failure.position == 3)
        #expect(
            Marbles.scanReport("-🙂-é-|", asCharacters: false) == Marbles.scanReport("-🙂-é-|", asCharacters: true))
    }
}
