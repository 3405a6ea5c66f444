/// The single pass over a marble diagram that every entry point shares: it
/// applies the time rules and the structural checks, and yields markers with
/// exact times in attoseconds (relative to the start of the text; hot diagrams
/// are shifted to their `^` afterwards).
@usableFromInline
struct MarbleScanner {
    /// Which language the text is written in.
    @usableFromInline
    enum Mode {
        case cold, hot, subscription, time
    }

    /// One marker found in the text.
    @usableFromInline
    struct Item {
        @usableFromInline
        enum Marker: Equatable {
            case value(Character), completed, error, subscribe, unsubscribe
        }
        @usableFromInline var marker: Marker
        /// Attoseconds since the start of the text.
        @usableFromInline var time: Int128
        /// Character offset in the diagram.
        @usableFromInline var position: Int
    }

    @usableFromInline let diagram: String
    @usableFromInline let mode: Mode
    @usableFromInline let frame: Int128

    @usableFromInline
    init(_ diagram: String, mode: Mode, frame: Duration) throws(MarbleError) {
        self.diagram = diagram
        self.mode = mode
        self.frame = frame.totalAttoseconds
        guard self.frame > 0 else { throw MarbleError(.invalidFrame, at: 0, in: diagram) }
    }

    /// All markers, in text order; structural errors are thrown.
    ///
    /// Text that is all ASCII (and has no carriage return, which joins a
    /// following line feed into one `Character`) is scanned on its UTF-8
    /// bytes: there one byte is one `Character`, so byte offsets are the
    /// character offsets that errors report. Any other text is scanned as
    /// `Character`s. Both go through the same loop (`scan(_:)`), so they
    /// cannot disagree; `Marbles.scanReport` shows both to the tests that
    /// check this.
    func scan() throws(MarbleError) -> [Item] {
        var items: [Item] = []
        // Every item takes at least one unit of the text: room for a short
        // diagram's items at once (a long one grows as usual).
        items.reserveCapacity(min(diagram.utf8.count, 32))
        try scan { items.append($0) }
        return items
    }

    /// ``scan()`` without the ASCII fast path.
    func scanAsCharacters() throws(MarbleError) -> [Item] {
        var items: [Item] = []
        try scan(asCharacters: true) { items.append($0) }
        return items
    }

    /// The markers of ``scan()``, handed to `found` one by one in text
    /// order as the scan finds them, without an array of them: a structural
    /// error is thrown when the scan reaches it, so `found` may have seen
    /// the markers before it. `asCharacters` skips the ASCII fast path.
    ///
    /// `dynamic`, so its calls go through a replaceable entry the optimizer
    /// cannot see through: `found` reaches the scan as an argument, never as
    /// the caller's closure. Otherwise the optimizer copies the whole scan,
    /// per text kind, into a specialization for each caller's `found` (ten
    /// copies, 53 KB of TickTesting's release code; Docs/PerformanceHistory.md,
    /// "The scanner's copies"). A caller on a hot path that needs the copy
    /// calls ``scanSpecialized(_:)``.
    @usableFromInline
    dynamic func scan(asCharacters: Bool = false, _ found: (Item) -> Void) throws(MarbleError) {
        if asCharacters {
            try scanCharacters(found)
        } else {
            try scanSpecialized(found)
        }
    }

    /// ``scan(asCharacters:_:)`` with the ASCII fast path, without its
    /// boundary: the optimizer copies the ASCII scan into a specialization
    /// for the caller's `found` (the text that is not all ASCII still takes
    /// the shared scan). For the printer's read-back check, run on every
    /// printed diagram; keep other callers on ``scan(asCharacters:_:)``.
    func scanSpecialized(_ found: (Item) -> Void) throws(MarbleError) {
        var text = diagram
        var failure: MarbleError?
        let scannedAsASCII = text.withUTF8 { bytes -> Bool in
            for byte in bytes where byte >= 0x80 || byte == 0x0D { return false }
            do throws(MarbleError) {
                try scan(ASCIIMarbleText(bytes: bytes), found)
            } catch {
                failure = error
            }
            return true
        }
        if let failure { throw failure }
        if scannedAsASCII { return }
        try scanCharacters(found)
    }

    /// The scan as `Character`s, behind the same boundary as
    /// ``scan(asCharacters:_:)`` (`dynamic`): one copy for all callers.
    dynamic func scanCharacters(_ found: (Item) -> Void) throws(MarbleError) {
        try scan(CharacterMarbleText(characters: MarbleText.characters(of: diagram)), found)
    }

    /// The checks of `Marbles.wholeFrameEvents(_:values:error:)` (the
    /// whole-frame path) that are not made byte by byte, on the diagram's
    /// UTF-8 `bytes`: its last character is not `s` or `m` (then the whole
    /// text could be a duration), and its end, one frame a character, is no
    /// later than `MarbleDuration.limit`.
    @inlinable
    func wholeFramesFit(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let last = bytes.last, last == UInt8(ascii: "s") || last == UInt8(ascii: "m") { return false }
        // Below 2³¹ frames of less than 2⁶³ attoseconds (about 9.2 s) the
        // end is below 2⁹⁴, far under the limit (10³³): the usual case,
        // decided here without a call.
        if bytes.count < 1 << 31, frame < Int128(Int64.max) { return true }
        return Self.endIsWithinTheLimit(count: bytes.count, frame: frame)
    }

    /// Whether `count` frames of `frame` attoseconds end no later than
    /// `MarbleDuration.limit`.
    @usableFromInline
    static func endIsWithinTheLimit(count: Int, frame: Int128) -> Bool {
        if count < 1 << 31, frame < Int128(Int64.max) { return true }
        let (end, overflow) = Int128(count).multipliedReportingOverflow(by: frame)
        return !overflow && end <= MarbleDuration.limit
    }

    /// The 128 one-character ASCII `String`s (read once a parse by the
    /// whole-frame path, see `Marbles.element(ascii:values:strings:)`).
    @usableFromInline
    static var asciiStrings: [String] { ASCIIMarbleText.strings }

    /// The `Character` of an ASCII byte (from the table made once).
    @usableFromInline
    static func character(ascii byte: UInt8) -> Character { ASCIIMarbleText.character(byte) }

    /// The scan itself, over either representation of the text.
    private func scan<Text: MarbleScanText>(_ text: Text, _ found: (Item) -> Void) throws(MarbleError) {
        let count = text.count
        var time: Int128 = 0
        var group: (time: Int128, position: Int)?
        var terminated = false
        var sawSubscribe = false
        var sawUnsubscribe = false
        var index = 0
        // Read once: a global is read through a lazy-initialization check.
        let limit = MarbleDuration.limit

        func advance(at position: Int) throws(MarbleError) {
            // `frame` may be huge; the limit check keeps `time` far from overflow.
            let (next, overflow) = time.addingReportingOverflow(frame)
            guard !overflow, next <= limit else {
                throw MarbleError(.timeOutOfRange, at: position, in: diagram)
            }
            time = next
        }

        while index < count {
            if text.isSpace(at: index) {
                index += 1
                continue
            }
            if index == 0 || text.isSpace(at: index - 1) {
                var end = index
                while end < count, !text.isSpace(at: end) { end += 1 }
                if let token = text.durationCandidate(index..<end), MarbleDuration.isCandidate(token) {
                    if group != nil { throw MarbleError(.durationInGroup, at: index, in: diagram) }
                    let duration = try MarbleDuration.parse(token, start: index, diagram: diagram)
                    time += duration
                    guard time <= limit else {
                        throw MarbleError(.timeOutOfRange, at: index, in: diagram)
                    }
                    index = end
                    continue
                }
            }
            let eventTime = group?.time ?? time
            // Switching on the ASCII byte: comparing `Character`s is a string
            // comparison each. (A space was skipped above, so a character
            // with an ASCII value is that one ASCII scalar.)
            let ascii = text.ascii(at: index)
            if ascii == nil, text.character(at: index) == "\u{FFFD}" {
                throw MarbleError(.replacementCharacter, at: index, in: diagram)
            }
            switch ascii {
            case UInt8(ascii: "-"):
                try advance(at: index)
            case UInt8(ascii: "("):
                if group != nil { throw MarbleError(.nestedGroup, at: index, in: diagram) }
                group = (time, index)
                try advance(at: index)
            case UInt8(ascii: ")"):
                if group == nil { throw MarbleError(.unopenedGroup, at: index, in: diagram) }
                group = nil
                try advance(at: index)
            case UInt8(ascii: "^"):
                switch mode {
                case .cold, .time:
                    throw MarbleError(.subscriptionPointInColdDiagram, at: index, in: diagram)
                case .hot, .subscription:
                    if sawSubscribe { throw MarbleError(.duplicateSubscriptionPoint, at: index, in: diagram) }
                    sawSubscribe = true
                    found(Item(marker: .subscribe, time: eventTime, position: index))
                    try advance(at: index)
                }
            case UInt8(ascii: "!"):
                guard mode == .subscription else {
                    throw MarbleError(.unsubscriptionInObservableDiagram, at: index, in: diagram)
                }
                if sawUnsubscribe { throw MarbleError(.duplicateUnsubscription, at: index, in: diagram) }
                sawUnsubscribe = true
                // "!" takes no time of its own.
                found(Item(marker: .unsubscribe, time: eventTime, position: index))
            default:
                if mode == .subscription {
                    throw MarbleError(.unexpectedMarkerInSubscription(text.character(at: index)), at: index, in: diagram)
                }
                // `time(_:)` accepts only "|" (RxJS 9 rejects markers there too).
                if mode != .time {
                    if terminated { throw MarbleError(.eventAfterTerminal, at: index, in: diagram) }
                    let marker: Item.Marker
                    switch ascii {
                    case UInt8(ascii: "|"):
                        marker = .completed
                        terminated = true
                    case UInt8(ascii: "#"):
                        marker = .error
                        terminated = true
                    default:
                        marker = .value(text.character(at: index))
                    }
                    found(Item(marker: marker, time: eventTime, position: index))
                } else if ascii == UInt8(ascii: "|") {
                    found(Item(marker: .completed, time: eventTime, position: index))
                } else {
                    throw MarbleError(.markerInTimeDiagram(text.character(at: index)), at: index, in: diagram)
                }
                try advance(at: index)
            }
            index += 1
        }
        if let group { throw MarbleError(.unclosedGroup, at: group.position, in: diagram) }
    }

    /// Converts attoseconds to a ``TestTime`` of this scanner's frame, or
    /// throws ``MarbleError/Kind/timeOutOfRange`` at `position`.
    @usableFromInline
    func testTime(_ attoseconds: Int128, position: Int) throws(MarbleError) -> TestTime {
        // Both in 64 bits (the usual case: times within about 9.2 s, frames
        // of at most that): a 64-bit division instead of a 128-bit one.
        if let small = Int64(exactly: attoseconds), let frame64 = Int64(exactly: frame) {
            var (frames, rest) = small.quotientAndRemainder(dividingBy: frame64)
            if rest < 0 {
                frames -= 1
                rest += frame64
            }
            guard let whole = Int(exactly: frames) else {
                throw MarbleError(.timeOutOfRange, at: position, in: diagram)
            }
            return TestTime(frames: whole, remainder: Duration(totalAttoseconds: Int128(rest)))
        }
        var frames = attoseconds / frame
        var rest = attoseconds % frame
        if rest < 0 {
            frames -= 1
            rest += frame
        }
        guard let whole = Int(exactly: frames) else {
            throw MarbleError(.timeOutOfRange, at: position, in: diagram)
        }
        return TestTime(frames: whole, remainder: Duration(totalAttoseconds: rest))
    }
}

/// What `MarbleScanner` needs to know about the text it scans, unit by unit
/// (a unit is one `Character` of the diagram).
protocol MarbleScanText {
    /// The number of units.
    var count: Int { get }
    /// The unit's ASCII value, `nil` when it is not one ASCII scalar.
    func ascii(at index: Int) -> UInt8?
    /// Whether the unit is whitespace.
    func isSpace(at index: Int) -> Bool
    /// The unit as a `Character`.
    func character(at index: Int) -> Character
    /// The units of a whitespace-delimited token as `Character`s, or `nil`
    /// when the token cannot be a duration (so no `Character`s are built).
    func durationCandidate(_ range: Range<Int>) -> ArraySlice<Character>?
}

/// Text of ASCII bytes without a carriage return: each byte is one `Character`.
struct ASCIIMarbleText: MarbleScanText {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    @inline(__always)
    func ascii(at index: Int) -> UInt8? { bytes[index] }

    @inline(__always)
    func isSpace(at index: Int) -> Bool {
        let byte = bytes[index]
        return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    func character(at index: Int) -> Character { ASCIIMarbleText.character(bytes[index]) }

    /// The `Character` of an ASCII byte.
    static func character(_ byte: UInt8) -> Character { characters[Int(byte)] }

    /// The 128 ASCII `Character`s, made once: making a `Character` from a
    /// byte builds a string each time (about 50 instructions a marker).
    private static let characters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    /// The 128 one-character ASCII `String`s, made once (the element of a
    /// marker when a diagram of `String` markers is read).
    static let strings: [String] = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) }

    func durationCandidate(_ range: Range<Int>) -> ArraySlice<Character>? {
        // Every duration ends with its unit, `ms`, `s` or `m`.
        guard let last = range.last, bytes[last] == UInt8(ascii: "s") || bytes[last] == UInt8(ascii: "m") else {
            return nil
        }
        return ArraySlice(range.map { ASCIIMarbleText.characters[Int(bytes[$0])] })
    }
}

/// Any text, as `Character`s.
struct CharacterMarbleText: MarbleScanText {
    let characters: [Character]

    var count: Int { characters.count }
    func ascii(at index: Int) -> UInt8? { characters[index].asciiValue }
    func isSpace(at index: Int) -> Bool { MarbleText.isSpace(characters[index]) }
    func character(at index: Int) -> Character { characters[index] }
    func durationCandidate(_ range: Range<Int>) -> ArraySlice<Character>? { characters[range] }
}

extension Marbles {
    /// What the scanner reads in `diagram`, in each of its four modes (cold,
    /// hot, subscription, time), one line each: the markers with their times
    /// in attoseconds and positions, or the error. `asCharacters` forces the
    /// `Character` path; otherwise ASCII text takes the byte path. For the
    /// tests that check the two paths agree.
    @_spi(TickInternals)
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    public static func scanReport(_ diagram: String, frame: Duration = .milliseconds(1), asCharacters: Bool) -> String {
        let modes: [MarbleScanner.Mode] = [.cold, .hot, .subscription, .time]
        return modes.map { mode in
            do throws(MarbleError) {
                let scanner = try MarbleScanner(diagram, mode: mode, frame: frame)
                let items = asCharacters ? try scanner.scanAsCharacters() : try scanner.scan()
                return items.map { "\($0.marker)@\($0.time)#\($0.position)" }.joined(separator: " ")
            } catch {
                return "error: \(error.kind) at \(error.position)"
            }
        }.joined(separator: "\n")
    }
}

extension Marbles {
    /// Whether `parse` reads `diagram` through the whole-frame path
    /// (`wholeFrameEvents(_:values:error:)`) rather than the general scan. For
    /// the tests that check the two agree, and that the first is taken.
    @_spi(TickInternals)
    public static func readsInWholeFrames(
        _ diagram: String, _ temperature: Temperature, frame: Duration = .milliseconds(1)
    ) -> Bool {
        guard let scanner = try? MarbleScanner(diagram, mode: temperature == .cold ? .cold : .hot, frame: frame) else {
            return false
        }
        // `String` markers: no marker lacks its value.
        return wholeFrameEvents(scanner, values: [Character: String](), error: TestError.boxedDefault) != nil
    }
}
