/// The single pass over a marble diagram that every entry point shares: it
/// applies the time rules and the structural checks, and yields markers with
/// exact times in attoseconds (relative to the start of the text; hot diagrams
/// are shifted to their `^` afterwards).
struct MarbleScanner {
    /// Which language the text is written in.
    enum Mode {
        case cold, hot, subscription, time
    }

    /// One marker found in the text.
    struct Item {
        enum Marker: Equatable {
            case value(Character), completed, error, subscribe, unsubscribe
        }
        var marker: Marker
        /// Attoseconds since the start of the text.
        var time: Int128
        /// Character offset in the diagram.
        var position: Int
    }

    let diagram: String
    let mode: Mode
    let frame: Int128

    init(_ diagram: String, mode: Mode, frame: Duration) throws(MarbleError) {
        self.diagram = diagram
        self.mode = mode
        self.frame = frame.totalAttoseconds
        guard self.frame > 0 else { throw MarbleError(.invalidFrame, at: 0, in: diagram) }
    }

    /// All markers, in text order; structural errors are thrown.
    func scan() throws(MarbleError) -> [Item] {
        let characters = MarbleText.characters(of: diagram)
        var items: [Item] = []
        var time: Int128 = 0
        var group: (time: Int128, position: Int)?
        var terminated = false
        var sawSubscribe = false
        var sawUnsubscribe = false
        var index = 0

        func advance(at position: Int) throws(MarbleError) {
            // `frame` may be huge; the limit check keeps `time` far from overflow.
            let (next, overflow) = time.addingReportingOverflow(frame)
            guard !overflow, next <= MarbleDuration.limit else {
                throw MarbleError(.timeOutOfRange, at: position, in: diagram)
            }
            time = next
        }

        while index < characters.count {
            let character = characters[index]
            if MarbleText.isSpace(character) {
                index += 1
                continue
            }
            if index == 0 || MarbleText.isSpace(characters[index - 1]) {
                var end = index
                while end < characters.count, !MarbleText.isSpace(characters[end]) { end += 1 }
                let token = characters[index..<end]
                if MarbleDuration.isCandidate(token) {
                    if group != nil { throw MarbleError(.durationInGroup, at: index, in: diagram) }
                    let duration = try MarbleDuration.parse(token, start: index, diagram: diagram)
                    time += duration
                    guard time <= MarbleDuration.limit else {
                        throw MarbleError(.timeOutOfRange, at: index, in: diagram)
                    }
                    index = end
                    continue
                }
            }
            let eventTime = group?.time ?? time
            // Switching on the ASCII byte: comparing `Character`s is a string
            // comparison each, and dominated the scan of short diagrams. (A
            // space was skipped above, so a character with an ASCII value is
            // that one ASCII scalar.)
            let ascii = character.asciiValue
            if ascii == nil, character == "\u{FFFD}" {
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
                    items.append(Item(marker: .subscribe, time: eventTime, position: index))
                    try advance(at: index)
                }
            case UInt8(ascii: "!"):
                guard mode == .subscription else {
                    throw MarbleError(.unsubscriptionInObservableDiagram, at: index, in: diagram)
                }
                if sawUnsubscribe { throw MarbleError(.duplicateUnsubscription, at: index, in: diagram) }
                sawUnsubscribe = true
                // "!" takes no time of its own.
                items.append(Item(marker: .unsubscribe, time: eventTime, position: index))
            default:
                if mode == .subscription {
                    throw MarbleError(.unexpectedMarkerInSubscription(character), at: index, in: diagram)
                }
                // `time(_:)` accepts only "|" (RxJS 9 rejects markers there too).
                if mode != .time {
                    if terminated { throw MarbleError(.eventAfterTerminal, at: index, in: diagram) }
                    let marker: Item.Marker =
                        ascii == UInt8(ascii: "|") ? .completed : ascii == UInt8(ascii: "#") ? .error : .value(character)
                    if marker == .completed || marker == .error { terminated = true }
                    items.append(Item(marker: marker, time: eventTime, position: index))
                } else if ascii == UInt8(ascii: "|") {
                    items.append(Item(marker: .completed, time: eventTime, position: index))
                } else {
                    throw MarbleError(.markerInTimeDiagram(character), at: index, in: diagram)
                }
                try advance(at: index)
            }
            index += 1
        }
        if let group { throw MarbleError(.unclosedGroup, at: group.position, in: diagram) }
        return items
    }

    /// Converts attoseconds to a ``TestTime`` of this scanner's frame, or
    /// throws ``MarbleError/Kind/timeOutOfRange`` at `position`.
    func testTime(_ attoseconds: Int128, position: Int) throws(MarbleError) -> TestTime {
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
