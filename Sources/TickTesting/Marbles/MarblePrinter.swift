/// A diagram written by ``Marbles/print(_:frame:)``: the text, and what is
/// needed to read it back.
public struct PrintedMarbles<Element>: CustomStringConvertible {
    /// The diagram text, e.g. `--a--(bc)--|`.
    public let diagram: String
    /// `.hot` when the diagram has a `^` (some events are at negative times).
    public let temperature: Marbles.Temperature
    /// The element of each value marker. Empty when the markers are the
    /// elements themselves (`String`/`Character` elements of one character).
    public let values: [Character: Element]
    /// The error of the `#` event, if there is one.
    public let error: (any Error)?
    /// `a = 10, b = 20`: shown when markers are not the elements' own text.
    public let legend: String?
    /// Whether ``diagram`` (read with ``values``, ``error``, ``temperature``
    /// and the same frame) gives back exactly the printed events. It is
    /// `false` only for timelines the language cannot write, e.g. an event
    /// after completion, or `(ab)` at frame 0 followed by an event at frame 2
    /// (a group takes its text width).
    public let isExact: Bool
    /// The display column where each group of same-time events starts, keyed
    /// by the events' time in attoseconds.
    let columns: [(time: Int128, column: Int)]

    /// The diagram, followed by the legend on its own line when there is one.
    public var description: String {
        legend.map { "\(diagram)\nvalues: \($0)" } ?? diagram
    }
}

/// Finds elements in constant time when they are `Hashable` (through
/// `AnyHashable`), by a linear search otherwise.
struct ElementIndex<Element: Equatable> {
    // Typed tables for the common element types (the casts below cost
    // nothing once the code is specialized), `AnyHashable` for the rest.
    private var strings: [String: Int] = [:]
    private var integers: [Int: Int] = [:]
    private var hashed: [AnyHashable: Int] = [:]
    private var unhashed: [(element: Element, index: Int)] = []

    func find(_ element: Element) -> Int? {
        if let string = element as? String { return strings[string] }
        if let integer = element as? Int { return integers[integer] }
        if let key = element as? AnyHashable { return hashed[key] }
        return unhashed.first { $0.element == element }?.index
    }

    mutating func insert(_ element: Element, _ index: Int) {
        if let string = element as? String {
            strings[string] = index
        } else if let integer = element as? Int {
            integers[integer] = index
        } else if let key = element as? AnyHashable {
            hashed[key] = index
        } else {
            unhashed.append((element, index))
        }
    }
}

/// Assigns one marker character to each distinct element.
///
/// When every element's text is one character that is not special in the
/// language, that character is its marker ("direct"); otherwise elements
/// get letters `a`, `b`, … in order of first appearance, listed in a legend.
/// Lookups are constant time for `Hashable` elements, so printing is linear.
struct MarkerTable<Element: Equatable> {
    private(set) var entries: [(element: Element, marker: Character)] = []
    private(set) var isDirect = true
    private var index = ElementIndex<Element>()

    static func isSpecial(_ character: Character) -> Bool {
        character.isWhitespace || "-|#()^!".contains(character)
    }

    /// - Parameter preferred: markers the caller already uses for some
    ///   elements (an expectation's `values` map); when given, every element
    ///   gets a letter marker and these elements keep their markers.
    init(elements: [Element], forceLegend: Bool = false, preferred: [Character: Element] = [:]) {
        var distinct: [Element] = []
        for element in elements where index.find(element) == nil {
            index.insert(element, distinct.count)
            distinct.append(element)
        }
        if !preferred.isEmpty {
            let known = preferred.filter { !Self.isSpecial($0.key) }.sorted { $0.key < $1.key }
            var generator = LegendMarkers()
            var used = Set(known.map(\.key))
            entries = distinct.map { element in
                if let marker = known.first(where: { $0.value == element })?.key { return (element, marker) }
                var marker = generator.next()
                while used.contains(marker) { marker = generator.next() }
                used.insert(marker)
                return (element, marker)
            }
            isDirect = false
            return
        }
        var direct = !forceLegend
        var markers: [Character] = []
        if direct {
            var seen = Set<Character>()
            for element in distinct {
                let text = String(describing: element)
                guard text.count == 1, let character = text.first, !Self.isSpecial(character),
                    seen.insert(character).inserted
                else {
                    direct = false
                    break
                }
                markers.append(character)
            }
        }
        if !direct {
            var generator = LegendMarkers()
            markers = distinct.map { _ in generator.next() }
        }
        isDirect = direct
        entries = Array(zip(distinct, markers))
    }

    func marker(for element: Element) -> Character {
        index.find(element).map { entries[$0].marker } ?? "?"
    }

    /// Which entries `used` contains, by entry index.
    func usedEntries(_ used: [Element]) -> [Bool] {
        var flags = [Bool](repeating: false, count: entries.count)
        for element in used {
            if let found = index.find(element) { flags[found] = true }
        }
        return flags
    }

    /// The legend for the elements used by `events` (nil when direct).
    func legend(for used: [Element]) -> String? {
        guard !isDirect else { return nil }
        let flags = usedEntries(used)
        let shown = entries.indices.filter { flags[$0] }.map { entries[$0] }
        guard !shown.isEmpty else { return nil }
        return shown.map { "\($0.marker) = \(Self.text(of: $0.element))" }.joined(separator: ", ")
    }

    static func text(of element: Element) -> String {
        legendText(element)
    }
}

/// An element that shows another value in legends (a wrapper).
protocol MarbleLegendValue {
    var legendValue: Any { get }
}

/// Optionals, seen without their type.
protocol MarbleOptional {
    var wrappedForLegend: Any? { get }
}

extension Optional: MarbleOptional {
    var wrappedForLegend: Any? { self.map { $0 as Any } }
}

/// How a legend writes an element: strings quoted, optionals as their
/// wrapped value (or `nil`), everything else as `String(describing:)`.
func legendText(_ element: Any) -> String {
    if let wrapper = element as? any MarbleLegendValue { return legendText(wrapper.legendValue) }
    if let optional = element as? any MarbleOptional {
        guard let wrapped = optional.wrappedForLegend else { return "nil" }
        return legendText(wrapped)
    }
    return element is String ? String(reflecting: element) : String(describing: element)
}

/// Marker letters for legends: a–z, A–Z, then Greek, then CJK ideographs.
struct LegendMarkers {
    private static let latin = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private var index = 0

    mutating func next() -> Character {
        defer { index += 1 }
        let latin = Self.latin
        if index < latin.count { return latin[index] }
        let greek = index - latin.count
        if greek < 25, let scalar = Unicode.Scalar(0x3B1 + UInt32(greek)) {
            return Character(scalar)
        }
        let cjk = UInt32(truncatingIfNeeded: index - latin.count - 25)
        return Character(Unicode.Scalar(0x4E00 + cjk % 0x5000) ?? "?")
    }
}

extension Marbles {
    /// More quiet frames than this are written as a duration token.
    static let longestDashRun = 20

    /// Writes recorded events as the canonical diagram.
    ///
    /// Rules: events at the same time form a group `(ab)`; a quiet stretch of
    /// at most 20 whole frames is written as dashes, anything longer (or not a
    /// whole number of frames) as a duration token between spaces (`a 99ms b`);
    /// events before time 0 make a hot diagram with `^` at 0; elements whose
    /// text is not a single ordinary character are written as letters with a
    /// legend. ``PrintedMarbles/isExact`` says whether the text reads back to
    /// exactly these events.
    // Compiled for the common element types too: a client's call with one
    // of them runs specialized code (no generic metadata per event; about
    // 5.6× fewer instructions for the `marble_diff` benchmark), any other
    // element type the generic code.
    @_specialize(where Element == String)
    @_specialize(where Element == Character)
    @_specialize(where Element == Int)
    public static func print<Element: Equatable>(
        _ events: [Recorded<Event<Element>>], frame: Duration = .milliseconds(1)
    ) -> PrintedMarbles<Element> {
        let table = MarkerTable(elements: events.compactMap { $0.value.element })
        let printed = layout(events, table: table, frame: frame)
        if !printed.isExact, table.isDirect {
            // A direct marker may have formed a duration token (`5m`); letters cannot.
            let lettered = layout(
                events, table: MarkerTable(elements: events.compactMap { $0.value.element }, forceLegend: true),
                frame: frame)
            if lettered.isExact { return lettered }
        }
        return printed
    }

    static func layout<Element: Equatable>(
        _ events: [Recorded<Event<Element>>], table: MarkerTable<Element>, frame: Duration
    ) -> PrintedMarbles<Element> {
        let frameAttos = frame > .zero ? frame.totalAttoseconds : MarbleDuration.attosPerMillisecond
        let times = events.map { $0.time.attoseconds(frame: frameAttos) }
        let shift = max(0, -(times.min() ?? 0))
        let hot = shift > 0
        var exact = true

        // Groups of consecutive same-time events, in raw (shifted) time: each
        // group's markers are `markers[start..<start + count]` (one array for
        // all of them, not one per group: a long timeline has many groups).
        var markers: [Character] = []
        markers.reserveCapacity(events.count + 1)
        var groups: [(time: Int128, start: Int, count: Int, isPoint: Bool)] = []
        for (event, time) in zip(events, times) {
            let marker: Character
            switch event.value {
            case .next(let element): marker = table.marker(for: element)
            case .completed: marker = "|"
            case .error: marker = "#"
            }
            let raw = time + shift
            if let last = groups.last, last.time == raw {
                groups[groups.count - 1].count += 1
            } else {
                if let last = groups.last, raw < last.time { exact = false }
                groups.append((raw, markers.count, 1, false))
            }
            markers.append(marker)
        }
        if hot {
            // The subscription point sits at raw time `shift`, first in its group.
            if let index = groups.firstIndex(where: { $0.time == shift }) {
                let start = groups[index].start
                markers.insert("^", at: start)
                groups[index].count += 1
                for later in groups.indices where groups[later].start > start { groups[later].start += 1 }
            } else {
                let index = groups.firstIndex { $0.time > shift } ?? groups.count
                markers.append("^")
                groups.insert((shift, markers.count - 1, 1, true), at: index)
            }
        }

        var text = ""
        // The display width of `text`, kept as it grows (measuring the whole
        // text per group would make printing quadratic).
        var width = 0
        var cursor: Int128 = 0
        var columns: [(time: Int128, column: Int)] = []
        for group in groups {
            let gap = group.time - cursor
            if gap < 0 {
                exact = false
            } else {
                let quietText = quiet(gap, frame: frameAttos, atStart: text.isEmpty)
                text += quietText
                // Dashes or a duration token: ASCII, a column a byte.
                width += quietText.utf8.count
            }
            if !group.isPoint { columns.append((group.time - shift, width)) }
            if group.count == 1 {
                let marker = markers[group.start]
                text.append(marker)
                width += MarbleText.width(of: marker)
            } else {
                let members = markers[group.start..<group.start + group.count]
                text += "(" + String(members) + ")"
                width += 2 + MarbleText.displayWidth(members)
            }
            let width = Int128(group.count == 1 ? 1 : group.count + 2)
            cursor = max(cursor, group.time) + width * frameAttos
        }

        let elements = events.compactMap { $0.value.element }
        let error = events.lazy.compactMap { $0.value.error }.first
        let plainText = table.isDirect && (Element.self == String.self || Element.self == Character.self)
        var values: [Character: Element] = [:]
        if !plainText {
            let flags = table.usedEntries(elements)
            for (index, entry) in table.entries.enumerated() where flags[index] { values[entry.marker] = entry.element }
        }
        if exact, !provablyExact(text, events: events, hot: hot, markers: table.entries.count) {
            let reread = try? parse(
                text, hot ? .hot : .cold, values: values, error: error ?? TestError(), frame: .init(totalAttoseconds: frameAttos))
            exact = reread.map { $0 == events } ?? false
        }
        return PrintedMarbles(
            diagram: text, temperature: hot ? .hot : .cold, values: values, error: error,
            legend: table.legend(for: elements), isExact: exact, columns: columns)
    }

    /// Whether a layout with groups in order is certain to read back as
    /// `events` without reading it: one token with no whitespace (so no
    /// duration, unless the whole text looks like one), cold, nothing after
    /// a terminal event, and one marker per element. Everything else is
    /// checked by reading the text back; this only spares long timelines a
    /// second parse.
    static func provablyExact<Element>(
        _ text: String, events: [Recorded<Event<Element>>], hot: Bool, markers: Int
    ) -> Bool {
        guard !hot, markers <= 52 + 25 + 0x5000 else { return false }
        if let last = text.last, last == "s" || last == "m" { return false }
        guard !text.utf8.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) || $0 >= 0x80 }) else { return false }
        guard let end = events.firstIndex(where: { $0.value.isStopEvent }) else { return true }
        return end == events.count - 1
    }

    /// The text for `gap` attoseconds of nothing: dashes, or a duration token.
    static func quiet(_ gap: Int128, frame: Int128, atStart: Bool) -> String {
        guard gap > 0 else { return "" }
        if gap % frame == 0, gap / frame <= Int128(longestDashRun) {
            return String(repeating: "-", count: Int(gap / frame))
        }
        return (atStart ? "" : " ") + MarbleDuration.token(attoseconds: gap) + " "
    }

    /// Writes a subscription as a subscription diagram: `^---!`, `(^!)` when
    /// disposed in the frame it was made, `--^` when never disposed.
    /// Subscriptions the language cannot write (negative times, or disposal
    /// less than a frame after subscription) are written as closely as
    /// possible; ``parseSubscription(_:frame:)`` would not give them back.
    public static func print(_ subscription: Subscription, frame: Duration = .milliseconds(1)) -> String {
        let frameAttos = frame > .zero ? frame.totalAttoseconds : MarbleDuration.attosPerMillisecond
        let start = subscription.subscribe.attoseconds(frame: frameAttos)
        var text = quiet(start, frame: frameAttos, atStart: true)
        guard let end = subscription.unsubscribe?.attoseconds(frame: frameAttos) else { return text + "^" }
        if end == start { return text + "(^!)" }
        text += "^"
        text += quiet(end - start - frameAttos, frame: frameAttos, atStart: false)
        return text + "!"
    }
}
