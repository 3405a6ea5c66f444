/// The marble language: read diagrams into recorded events, subscriptions
/// and durations; write recorded events back as diagrams; compare them.
///
/// The syntax is RxJS's "run mode" marble syntax with strict checks; the full
/// reference is `Docs/Marbles.md`. In short: `-` is one frame, any other
/// character a value (one frame), `|` completion, `#` error, `(ab)` events in
/// the same frame, `^` the subscription point of a hot diagram, whitespace
/// nothing, and `10ms` / `1.5s` / `2m` (after whitespace or at the start, and
/// followed by whitespace or the end) exactly that much time.
///
/// ```swift
/// let events = try Marbles.parse("--a--(bc)--|")
/// // [next(a) @ 2, next(b) @ 5, next(c) @ 5, completed @ 11]
/// ```
public enum Marbles {
    /// Whether an observable diagram is cold (frame 0 = subscription) or hot
    /// (frame 0 = its `^`, or the start of the text without one).
    public enum Temperature: Sendable {
        /// Times are relative to the subscription; `^` is an error.
        case cold
        /// Times are absolute; an optional `^` marks frame 0.
        case hot
    }

    /// Reads an observable diagram.
    ///
    /// - Parameters:
    ///   - diagram: the diagram text.
    ///   - temperature: `.cold` (no `^` allowed) or `.hot` (an optional `^`
    ///     marks frame 0; events before it get negative times).
    ///   - values: the element of each value marker. When empty, the marker
    ///     itself is the element, which works only when `Element` is `String`
    ///     or `Character`. When not empty, every marker must be in it.
    ///   - error: the error of `#` (``TestError`` with code 0 by default).
    ///   - frame: the duration of one frame, which is what `-` and each marker
    ///     take (1 ms by default). Times are returned in these frames.
    /// - Returns: the events, in diagram order, with exact times.
    /// - Throws: ``MarbleError`` naming the offending character.
    @inlinable
    public static func parse<Element>(
        _ diagram: String, _ temperature: Temperature = .cold, values: [Character: Element] = [:],
        error: any Error = TestError.boxedDefault, frame: Duration = .milliseconds(1)
    ) throws(MarbleError) -> [Recorded<Event<Element>>] {
        // The scan is not generic; only the elements are made here, where the
        // caller's element type is known (this function is inlinable), so no
        // generic metadata is looked up per event. Each marker becomes its
        // event as the scan finds it (no array of markers in between).
        let scanner = try MarbleScanner(diagram, mode: temperature == .cold ? .cold : .hot, frame: frame)
        // The common diagram first (whole frames, no error possible but a
        // marker without a value): see `wholeFrameEvents(_:values:error:)`.
        // Text it does not cover, and a marker without a value, take the
        // general path below (which reports errors as it always did).
        if let events = wholeFrameEvents(scanner, values: values, error: error) { return events }
        var events: [Recorded<Event<Element>>] = []
        // Each event takes at least one character: room for a short
        // diagram's events at once (a long one grows as usual).
        events.reserveCapacity(min(diagram.utf8.count, 32))
        // What the text-order reading below would throw first (a marker
        // without a value, a time out of range), thrown only after the scan:
        // a structural error anywhere in the text comes first, as when the
        // markers were all scanned before any event was made.
        var firstError: MarbleError?
        // Whether `firstError` is set (a flag: reading the optional error
        // for each marker costs an outlined copy of it).
        var failed = false
        // A hot diagram whose `^` is not its first frame: its times are
        // relative to the `^`, known only once the scan reaches it.
        var shifted = false
        try scanner.scan { item in
            guard !failed else { return }
            let event: Event<Element>
            switch item.marker {
            case .subscribe, .unsubscribe:
                if item.time != 0 { shifted = true }
                return
            case .completed: event = .completed
            case .error: event = .error(error)
            case .value(let marker):
                do throws(MarbleError) {
                    event = .next(try element(for: marker, values: values, at: item.position, in: diagram))
                } catch {
                    (firstError, failed) = (error, true)
                    return
                }
            }
            do throws(MarbleError) {
                events.append(Recorded(time: try scanner.testTime(item.time, position: item.position), value: event))
            } catch {
                (firstError, failed) = (error, true)
            }
        }
        if shifted { return try parseShifted(diagram, temperature, values: values, error: error, frame: frame) }
        if let firstError { throw firstError }
        return events
    }

    /// ``parse(_:_:values:error:frame:)`` for a hot diagram whose `^` is
    /// not at its start: the markers are scanned first, then each time is
    /// taken relative to the `^` (right for any diagram: see
    /// ``parseThroughMarkerArray(_:_:values:error:frame:)``).
    @inlinable
    static func parseShifted<Element>(
        _ diagram: String, _ temperature: Temperature, values: [Character: Element], error: any Error, frame: Duration
    ) throws(MarbleError) -> [Recorded<Event<Element>>] {
        let (scanner, items, origin) = try scanObservable(diagram, temperature, frame: frame)
        var events: [Recorded<Event<Element>>] = []
        events.reserveCapacity(items.count)
        for item in items {
            let event: Event<Element>
            switch item.marker {
            case .subscribe, .unsubscribe: continue
            case .completed: event = .completed
            case .error: event = .error(error)
            case .value(let marker):
                event = .next(try element(for: marker, values: values, at: item.position, in: diagram))
            }
            let time = try scanner.testTime(item.time - origin, position: item.position)
            events.append(Recorded(time: time, value: event))
        }
        return events
    }

    /// ``parse(_:_:values:error:frame:)`` through the array of all the
    /// diagram's markers, each event made after the scan: the way every
    /// diagram was read before `parse` made the events during the scan
    /// (and the way it still reads a hot diagram whose `^` is not at its
    /// start). For the tests that check the two agree.
    @_spi(TickInternals)
    public static func parseThroughMarkerArray<Element>(
        _ diagram: String, _ temperature: Temperature = .cold, values: [Character: Element] = [:],
        error: any Error = TestError.boxedDefault, frame: Duration = .milliseconds(1)
    ) throws(MarbleError) -> [Recorded<Event<Element>>] {
        try parseShifted(diagram, temperature, values: values, error: error, frame: frame)
    }

    /// The markers of an observable diagram in text order, and the time of
    /// its `^` (0 when there is none); structural errors are thrown.
    @usableFromInline
    static func scanObservable(
        _ diagram: String, _ temperature: Temperature, frame: Duration
    ) throws(MarbleError) -> (scanner: MarbleScanner, items: [MarbleScanner.Item], origin: Int128) {
        let scanner = try MarbleScanner(diagram, mode: temperature == .cold ? .cold : .hot, frame: frame)
        let items = try scanner.scan()
        var origin: Int128 = 0
        for item in items where item.marker == .subscribe {
            origin = item.time
            break
        }
        return (scanner, items, origin)
    }

    /// The events of the most common diagram, read in whole frames without
    /// the general scan, or nil for any text this does not cover (and for a
    /// marker without a value), which then takes the general path (which
    /// reports errors as it always did). One pass over the UTF-8 bytes that
    /// checks the text and makes each event as it finds its marker; the
    /// element tables are read once.
    ///
    /// It covers cold and hot diagrams of printable ASCII (`!` through `~`)
    /// with no whitespace (so no durations), no `^` and no `!`, whose last
    /// character is not `s` or `m` (then the whole text could be a
    /// duration), and that the general scan reads without an error: groups
    /// neither nested nor unopened nor left open, nothing after `|` or `#`,
    /// and the end of the text no later than `MarbleDuration.limit` (every
    /// character takes one frame, so that is `count × frame`: see
    /// `MarbleScanner.wholeFramesFit(_:)`). There every time is a whole
    /// number of frames from the start, which is what
    /// `MarbleScanner.testTime(_:position:)` gives for it (remainder zero):
    /// a marker's frame is its byte offset, a group's markers take the frame
    /// of its `(`, and the order is the general scan's. `MarblePropertyTests`
    /// checks `parse`, which takes this path first, against the general
    /// scan's marker array.
    @inlinable
    static func wholeFrameEvents<Element>(
        _ scanner: MarbleScanner, values: [Character: Element], error: any Error
    ) -> [Recorded<Event<Element>>]? {
        guard scanner.mode == .cold || scanner.mode == .hot else { return nil }
        var text = scanner.diagram
        return text.withUTF8 { bytes -> [Recorded<Event<Element>>]? in
            guard scanner.wholeFramesFit(bytes) else { return nil }
            var events: [Recorded<Event<Element>>] = []
            // Each event takes at least one character: room for a short
            // diagram's events at once (a long one grows as usual).
            events.reserveCapacity(Swift.min(bytes.count, 32))
            // Read once (a call into the standard library, a global's lazy
            // initialization check).
            let zero = Duration.zero
            let strings = values.isEmpty ? MarbleScanner.asciiStrings : []
            // The frame of the open group's `(`, or -1 outside a group.
            var groupFrame = -1
            var terminated = false
            for index in bytes.indices {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "-"):
                    continue
                case UInt8(ascii: "("):
                    if groupFrame >= 0 { return nil }
                    groupFrame = index
                    continue
                case UInt8(ascii: ")"):
                    if groupFrame < 0 { return nil }
                    groupFrame = -1
                    continue
                case UInt8(ascii: "^"), UInt8(ascii: "!"):
                    return nil
                case 0x22...0x7E:
                    break
                default:
                    // Whitespace, control characters, non-ASCII bytes.
                    return nil
                }
                if terminated { return nil }
                // Each event made in place in its `append` (a local event
                // appended was copied, then destroyed: outlined, about 40
                // instructions an event).
                let time = TestTime(frames: groupFrame >= 0 ? groupFrame : index, remainder: zero)
                switch byte {
                case UInt8(ascii: "|"):
                    terminated = true
                    events.append(Recorded(time: time, value: .completed))
                case UInt8(ascii: "#"):
                    terminated = true
                    events.append(Recorded(time: time, value: .error(error)))
                default:
                    guard let element = element(ascii: byte, values: values, strings: strings) else { return nil }
                    events.append(Recorded(time: time, value: .next(element)))
                }
            }
            return groupFrame < 0 ? events : nil
        }
    }

    /// ``element(for:values:at:in:)`` of the marker that is the ASCII byte
    /// `byte`, for the whole-frame path: the same element, or nil where that
    /// throws (the general path then reports the error). Without values, a
    /// `String` element is the marker's one-character string, read from
    /// `strings` (`MarbleScanner.asciiStrings`, made once; empty when there
    /// are values), and no error is made only to be dropped.
    @inlinable
    static func element<Element>(ascii byte: UInt8, values: [Character: Element], strings: [String]) -> Element? {
        if values.isEmpty {
            if let element = strings[Int(byte)] as? Element { return element }
            return MarbleScanner.character(ascii: byte) as? Element
        }
        return values[MarbleScanner.character(ascii: byte)]
    }

    @inlinable
    static func element<Element>(
        for marker: Character, values: [Character: Element], at position: Int, in diagram: String
    ) throws(MarbleError) -> Element {
        if values.isEmpty {
            if let element = String(marker) as? Element { return element }
            if let element = marker as? Element { return element }
            throw MarbleError(
                .markerNeedsValue(marker, elementType: String(describing: Element.self)), at: position, in: diagram)
        }
        guard let element = values[marker] else {
            throw MarbleError(.missingValue(marker), at: position, in: diagram)
        }
        return element
    }

    /// Reads a subscription diagram: `^` is the subscription (frame 0 when
    /// there is none), `!` the unsubscription (never, when there is none).
    /// `^` takes one frame, `!` none: `"^---!"` is ``Subscription`` `(0, 4)`.
    ///
    /// - Throws: ``MarbleError`` for any other marker, a second `^` or `!`, or
    ///   `!` before `^`.
    public static func parseSubscription(
        _ diagram: String, frame: Duration = .milliseconds(1)
    ) throws(MarbleError) -> Subscription {
        let scanner = try MarbleScanner(diagram, mode: .subscription, frame: frame)
        let items = try scanner.scan()
        let subscribe = items.first { $0.marker == .subscribe }
        let unsubscribe = items.first { $0.marker == .unsubscribe }
        let start = try scanner.testTime(subscribe?.time ?? 0, position: subscribe?.position ?? 0)
        guard let unsubscribe else { return Subscription(start) }
        if unsubscribe.time < (subscribe?.time ?? 0) {
            throw MarbleError(.unsubscriptionBeforeSubscription, at: unsubscribe.position, in: diagram)
        }
        return Subscription(start, try scanner.testTime(unsubscribe.time, position: unsubscribe.position))
    }

    /// The duration from the start of `diagram` to its single `|`:
    /// `time("---|")` is 3 frames, `time("12ms ---|")` 15 ms. Every character
    /// but whitespace takes a frame; durations count as written.
    ///
    /// - Throws: ``MarbleError`` when there is not exactly one `|` (at the
    ///   second `|`, or at the end when there is none), or for any structural
    ///   error.
    public static func time(_ diagram: String, frame: Duration = .milliseconds(1)) throws(MarbleError) -> Duration {
        let scanner = try MarbleScanner(diagram, mode: .time, frame: frame)
        let bars = try scanner.scan().filter { $0.marker == .completed }
        guard bars.count == 1, let bar = bars.first else {
            let position = bars.count > 1 ? bars[1].position : diagram.count
            throw MarbleError(.timeNeedsOneCompletion(count: bars.count), at: position, in: diagram)
        }
        return Duration(totalAttoseconds: bar.time)
    }
}

extension TestTime {
    /// Attoseconds since the origin, for a frame of `frame` attoseconds
    /// (saturating at ±2¹²⁰ so that later arithmetic cannot overflow).
    package func attoseconds(frame: Int128) -> Int128 {
        let bound: Int128 = 1 << 120
        let (product, overflow) = Int128(frames).multipliedReportingOverflow(by: frame)
        if overflow || product > bound || product < -bound { return frames < 0 ? -bound : bound }
        return product + remainder.totalAttoseconds
    }
}
