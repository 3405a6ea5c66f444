/// A marble diagram that Tick cannot read, with the position of the offending
/// character.
///
/// Every rule of the marble language that a diagram can break has its own
/// ``Kind``. The ``description`` shows the diagram with a caret under the
/// offending character and says how to fix it:
///
/// ```text
/// marble diagram error at column 3: a group cannot contain another group
///   --((a))
///      ^
/// close the first group before opening the next one, e.g. "(ab)(cd)"
/// ```
public struct MarbleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the diagram.
    public enum Kind: Equatable, Sendable {
        /// `(` inside a group: `((a))`.
        case nestedGroup
        /// `)` with no open group: `a)`.
        case unopenedGroup
        /// `(` never closed: `(a`. The position is the `(`.
        case unclosedGroup
        /// `^` in a cold diagram (only hot diagrams have a subscription point).
        case subscriptionPointInColdDiagram
        /// A second `^` (in a hot diagram or in a subscription diagram).
        case duplicateSubscriptionPoint
        /// `!` in an observable diagram (it belongs in subscription diagrams).
        case unsubscriptionInObservableDiagram
        /// A second `!` in a subscription diagram.
        case duplicateUnsubscription
        /// Anything but `^`, `!`, `-`, groups, whitespace and durations in a
        /// subscription diagram.
        case unexpectedMarkerInSubscription(Character)
        /// `!` at an earlier time than `^` in a subscription diagram.
        case unsubscriptionBeforeSubscription
        /// A value marker that the (non-empty) `values` map does not contain.
        case missingValue(Character)
        /// A value marker with no `values` map, for an element type that is
        /// neither `String` nor `Character`.
        case markerNeedsValue(Character, elementType: String)
        /// An event after `|` or `#`: `a|b`, `#-a`.
        case eventAfterTerminal
        /// Something that looks like a duration but is not one: `1.ms`, `1..5s`,
        /// or a decimal finer than one attosecond.
        case malformedDuration
        /// A negative duration: `-5ms`.
        case negativeDuration
        /// A duration inside a group: the events of a group share one frame, so
        /// no time can pass inside it.
        case durationInGroup
        /// A time too far from zero: beyond ±10¹⁵ seconds, or more frames than
        /// an `Int` can count.
        case timeOutOfRange
        /// `time(_:)` needs exactly one `|`; `count` is how many there were.
        case timeNeedsOneCompletion(count: Int)
        /// The frame duration is zero or negative.
        case invalidFrame
        /// A value marker or `#` in a `time(_:)` diagram, which may hold only
        /// `-`, whitespace, durations and one `|` (as in RxJS 9).
        case markerInTimeDiagram(Character)
        /// U+FFFD, the replacement character: the diagram came from text that
        /// was not valid UTF-8 (or the character was typed on purpose; it is
        /// not accepted as a marker so that broken input cannot pass as one).
        case replacementCharacter
    }

    /// What is wrong.
    public let kind: Kind
    /// The offset of the offending `Character` in ``diagram`` (0-based; equal
    /// to the diagram's length when the problem is at its end).
    public let position: Int
    /// The diagram as given.
    public let diagram: String

    /// An error of `kind` at character offset `position` of `diagram`.
    public init(_ kind: Kind, at position: Int, in diagram: String) {
        self.kind = kind
        self.position = position
        self.diagram = diagram
    }

    /// One line: what is wrong.
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    public var summary: String {
        switch kind {
        case .nestedGroup: return "a group cannot contain another group"
        case .unopenedGroup: return "\")\" closes a group that was never opened"
        case .unclosedGroup: return "this group is never closed"
        case .subscriptionPointInColdDiagram: return "\"^\" (the subscription point) in a cold diagram"
        case .duplicateSubscriptionPoint: return "a second \"^\"; a diagram has at most one subscription point"
        case .unsubscriptionInObservableDiagram: return "\"!\" (unsubscription) in an observable diagram"
        case .duplicateUnsubscription: return "a second \"!\"; a subscription is disposed of at most once"
        case .unexpectedMarkerInSubscription(let marker):
            return "\"\(marker)\" in a subscription diagram"
        case .unsubscriptionBeforeSubscription: return "\"!\" happens before \"^\""
        case .missingValue(let marker): return "value marker \"\(marker)\" is not in the values map"
        case .markerNeedsValue(let marker, let type):
            return "value marker \"\(marker)\" has no value: there is no values map and the element type \(type) is not String or Character"
        case .eventAfterTerminal: return "an event after the sequence ended (\"|\" or \"#\")"
        case .malformedDuration: return "malformed duration"
        case .negativeDuration: return "a duration cannot be negative"
        case .durationInGroup: return "a duration inside a group"
        case .timeOutOfRange: return "this time is out of range"
        case .timeNeedsOneCompletion(let count):
            return count == 0
                ? "time(_:) needs a \"|\" to mark the end of the time span"
                : "time(_:) needs exactly one \"|\", found \(count)"
        case .invalidFrame: return "the frame duration must be positive"
        case .markerInTimeDiagram(let marker): return "\"\(marker)\" in a time diagram"
        case .replacementCharacter:
            return "\"\u{FFFD}\" (U+FFFD): the diagram is not valid text, probably bytes that are not UTF-8"
        }
    }

    /// One line: what to do about it.
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    public var fix: String {
        if let hint = durationHint { return hint }
        switch kind {
        case .nestedGroup: return "close the first group before opening the next one, e.g. \"(ab)(cd)\""
        case .unopenedGroup: return "remove the \")\" or open the group with \"(\" before it"
        case .unclosedGroup: return "add \")\" after the last event of the group"
        case .subscriptionPointInColdDiagram:
            return "remove the \"^\" (a cold diagram starts when it is subscribed to), or make the observable hot"
        case .duplicateSubscriptionPoint: return "keep only one \"^\""
        case .unsubscriptionInObservableDiagram:
            return "remove the \"!\"; write unsubscription in the subscription diagram, e.g. expect(o, subscription: \"^--!\")"
        case .duplicateUnsubscription: return "keep only one \"!\""
        case .unexpectedMarkerInSubscription:
            return "a subscription diagram holds only \"^\", \"!\", \"-\", whitespace, durations and groups like \"(^!)\""
        case .unsubscriptionBeforeSubscription: return "move the \"!\" after the \"^\""
        case .missingValue(let marker): return "add \"\(marker)\" to the values map, or use a marker that is in it"
        case .markerNeedsValue(let marker, _): return "pass a values map, e.g. values: [\"\(marker)\": ...]"
        case .eventAfterTerminal: return "remove the events after \"|\" or \"#\"; only \"-\" and whitespace may follow"
        case .malformedDuration:
            return "write a duration as digits with an optional decimal part and a unit, e.g. 10ms, 1.5s, 2m (at most attosecond precision)"
        case .negativeDuration: return "time only moves forward; use a positive duration"
        case .durationInGroup: return "move the duration out of the group; the events of a group share one frame"
        case .timeOutOfRange: return "keep diagram times within ±10¹⁵ seconds and within Int.max frames"
        case .timeNeedsOneCompletion: return "mark the end of the time span with exactly one \"|\", e.g. time(\"---|\")"
        case .invalidFrame: return "use a positive frame duration, e.g. 1ms"
        case .markerInTimeDiagram:
            return "a time diagram holds only \"-\", whitespace, durations and one \"|\", e.g. time(\"---|\")"
        case .replacementCharacter: return "pass the diagram as valid UTF-8 text"
        }
    }

    /// "did you mean `299ms`?" when the offending marker is a number that a
    /// space separates from a unit (`299 ms`).
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    private var durationHint: String? {
        switch kind {
        case .missingValue, .markerNeedsValue, .markerInTimeDiagram: break
        default: return nil
        }
        let characters = Array(diagram)
        guard position >= 0, position < characters.count else { return nil }
        var start = position
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        var end = position
        while end < characters.count, !characters[end].isWhitespace { end += 1 }
        let number = characters[start..<end]
        guard number.contains(where: { $0.isASCII && $0.isNumber }),
            number.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." })
        else { return nil }
        var unitStart = end
        while unitStart < characters.count, characters[unitStart].isWhitespace { unitStart += 1 }
        guard unitStart > end else { return nil }
        var unitEnd = unitStart
        while unitEnd < characters.count, !characters[unitEnd].isWhitespace { unitEnd += 1 }
        let unit = String(characters[unitStart..<unitEnd])
        guard ["ms", "s", "m"].contains(unit) else { return nil }
        return "did you mean `\(String(number))\(unit)`? A duration is written without a space before its unit"
    }

    /// The full message: what is wrong, the diagram with a caret under the
    /// offending character, and what to do.
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    public var description: String {
        let characters = Array(diagram)
        let clamped = min(max(position, 0), characters.count)
        let caretColumn = MarbleText.displayWidth(characters[..<clamped])
        return """
            marble diagram error at column \(clamped + 1): \(summary)
              \(MarbleText.visible(diagram))
              \(String(repeating: " ", count: caretColumn))^
            \(fix)
            """
    }
}

/// Text helpers shared by the marble parser, printer and diff.
enum MarbleText {
    /// The columns a terminal uses for `characters`: 2 for emoji and East Asian
    /// wide characters, 1 otherwise (tabs and newlines are shown as one
    /// column, see ``visible(_:)``).
    static func displayWidth<C: Collection>(_ characters: C) -> Int where C.Element == Character {
        characters.reduce(0) { $0 + width(of: $1) }
    }

    /// Whether `text` is ASCII without carriage returns: then each byte is
    /// one `Character` of one column ("\r\n" would be one `Character` of two
    /// bytes).
    static func isPlainASCII(_ text: String) -> Bool {
        // A native string's bytes in one buffer: a tight loop over them (the
        // `UTF8View` iterator costs about ten times as much a byte).
        if let plain = text.utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
        }) {
            return plain
        }
        return text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// `text.count`, without walking the characters of plain ASCII text.
    static func count(_ text: String) -> Int {
        isPlainASCII(text) ? text.utf8.count : text.count
    }

    /// `Array(text)`, faster for ASCII text (no grapheme breaking needed,
    /// except for "\r\n", which is one `Character`).
    static func characters(of text: String) -> [Character] {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return Array(text) }
        return utf8.map { Character(Unicode.Scalar($0)) }
    }

    /// `Character.isWhitespace`, with a fast path for ASCII (diagrams are
    /// mostly ASCII, and the Unicode property lookup dominates long scans).
    @inline(__always)
    static func isSpace(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii == 0x20 || (0x09...0x0D).contains(ascii) }
        return character.isWhitespace
    }

    /// The columns a terminal uses for one character.
    static func width(of character: Character) -> Int {
        // One byte below 0x80: ASCII, one column (cheaper than `asciiValue`).
        let utf8 = character.utf8
        if utf8.count == 1, utf8.first.unsafelyUnwrapped < 0x80 { return 1 }
        if character.asciiValue != nil { return 1 }
        guard let scalar = character.unicodeScalars.first else { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        if character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// The diagram on one line: tabs, newlines and other whitespace become
    /// spaces so the caret line stays aligned.
    static func visible(_ diagram: String) -> String {
        String(diagram.map { $0.isWhitespace ? " " : $0 })
    }
}
