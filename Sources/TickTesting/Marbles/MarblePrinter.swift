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

/// What the printer writes for a timeline of element ids: a
/// ``PrintedMarbles`` without the elements.
struct MarbleLayout {
    let diagram: String
    let temperature: Marbles.Temperature
    /// The marker of each element id the diagram uses, when the markers are
    /// not the elements themselves.
    let values: [(marker: Character, id: Int)]
    let legend: String?
    let isExact: Bool
    /// The display column where each group of same-time events starts, keyed
    /// by the events' time in attoseconds.
    let columns: [(time: Int128, column: Int)]
}

/// Finds elements in constant time when they are `Hashable` (through
/// `AnyHashable`), by a linear search otherwise.
struct ElementIndex<Element: Equatable> {
    // Typed tables for the common element types (the casts below cost
    // nothing once the code is specialized), `AnyHashable` for the rest.
    private var strings = [String: Int]()
    private var integers = [Int: Int]()
    private var hashed = [AnyHashable: Int]()
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

// The printer and the diff work on element ids, not on elements: the
// generic layer (``MarbleIDs``) gives each distinct element an id and each
// event a kind, once; everything after it (marker table, layout, reading
// the text back, the diff) is compiled once, not once per element type.

/// One timeline with its elements replaced by ids: what the printer and
/// the diff work on.
struct MarbleTimeline {
    /// Per event, the kind of event: an element id (`>= 0`) for `next`,
    /// ``completed``, or ``errorKind(_:)`` of an index into ``errors``.
    var kinds: [Int] = []
    /// Per event, its time as recorded.
    var times: [TestTime] = []
    /// The errors of the timeline's error events, in order.
    var errors: [any Error] = []
    /// Which of the timelines given to ``MarbleIDs`` this is.
    var side = 0

    static let completed = -1
    static func errorKind(_ index: Int) -> Int { -2 - index }
    static func errorIndex(_ kind: Int) -> Int { -2 - kind }

    var count: Int { kinds.count }

    /// The first error event's error.
    var firstError: (any Error)? { errors.first }
}

/// What the printer needs to know about the distinct elements of one or
/// more timelines (``MarbleIDs``), by id.
struct MarbleElements {
    /// How many distinct elements there are (ids `0..<count`).
    let count: Int
    /// `String(describing:)` of an element.
    let text: (Int) -> String
    /// An element as a legend writes it (``legendText(_:)``).
    let legendText: (Int) -> String
    /// The description of an event, by its timeline's ``MarbleTimeline/side``
    /// and its index there (`next(…)` shows the event's own element, which
    /// may differ in text from the equal element that has the id).
    let eventDescription: (_ side: Int, _ index: Int) -> String
    /// Per id, whether the element is found again by its own value: `false`
    /// for one not equal to itself (NaN), which gets an id per occurrence, is
    /// written `?` and has no legend entry.
    let isFindable: [Bool]
    /// Per id, the marker the caller's `values` map gives it, if any.
    let preferred: [Character?]
    /// The markers of the caller's `values` map that a diagram can hold (no
    /// other element gets one of them).
    let reserved: [Character]
    /// Whether the caller gave a `values` map (even one with no usable
    /// marker).
    let hasPreferred: Bool
    /// Whether the elements are `String`s or `Character`s, which a diagram
    /// can hold as themselves (no `values` map).
    let isPlainText: Bool

    /// The same elements with no `values` map.
    var withoutPreferred: MarbleElements {
        MarbleElements(
            count: count, text: text, legendText: legendText, eventDescription: eventDescription,
            isFindable: isFindable, preferred: [], reserved: [], hasPreferred: false, isPlainText: isPlainText)
    }
}

/// The generic layer of the printer and the diff: ids for the distinct
/// elements of some timelines (in order of first appearance), the
/// timelines as ids, and the elements themselves.
struct MarbleIDs<Element: Equatable> {
    let distinct: [Element]
    let timelines: [MarbleTimeline]

    /// Ids for the elements of `lists`, each timeline of `lists` as ids.
    // Compiled for the common element types too (this loop is the only
    // per-event generic code of the printer and the diff): a call with one
    // of them looks up no generic metadata per event.
    @_specialize(where Element == String)
    @_specialize(where Element == Character)
    @_specialize(where Element == Int)
    init(_ lists: [[Recorded<Event<Element>>]]) {
        var index = ElementIndex<Element>()
        var distinct: [Element] = []
        var findable: [Bool] = []
        var timelines: [MarbleTimeline] = []
        for events in lists {
            var timeline = MarbleTimeline()
            timeline.side = timelines.count
            timeline.kinds.reserveCapacity(events.count)
            timeline.times.reserveCapacity(events.count)
            for event in events {
                let kind: Int
                switch event.value {
                case .next(let element):
                    if let found = index.find(element) {
                        kind = found
                    } else {
                        kind = distinct.count
                        index.insert(element, kind)
                        distinct.append(element)
                        findable.append(index.find(element) != nil)
                    }
                case .completed:
                    kind = MarbleTimeline.completed
                case .error(let error):
                    kind = MarbleTimeline.errorKind(timeline.errors.count)
                    timeline.errors.append(error)
                }
                timeline.kinds.append(kind)
                timeline.times.append(event.time)
            }
            timelines.append(timeline)
        }
        (self.index, self.distinct, self.isFindable, self.timelines) = (index, distinct, findable, timelines)
        self.lists = lists
    }

    private let index: ElementIndex<Element>
    private let isFindable: [Bool]
    private let lists: [[Recorded<Event<Element>>]]

    /// The distinct elements, described for the non-generic printer.
    ///
    /// - Parameter preferred: markers the caller already uses for some
    ///   elements (an expectation's `values` map).
    // Runs once per print or diff, and its closures once per distinct
    // element or listed difference: compiled once, generic, not once per
    // element type (Docs/Performance.md, "Build time").
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never)
    func elements(preferred: [Character: Element] = [:]) -> MarbleElements {
        let distinct = distinct
        var markers = [Character?](repeating: nil, count: preferred.isEmpty ? 0 : distinct.count)
        var reserved: [Character] = []
        if !preferred.isEmpty {
            // Each element takes the first marker, in marker order, whose value
            // equals it.
            let known = preferred.keys.filter { !MarkerTable.isSpecial($0) }.sorted()
            for marker in known {
                if let value = preferred[marker], let id = index.find(value), markers[id] == nil { markers[id] = marker }
            }
            reserved = known
        }
        return MarbleElements(
            count: distinct.count,
            text: { String(describing: distinct[$0]) },
            legendText: { TickTesting.legendText(distinct[$0]) },
            eventDescription: { [lists] in lists[$0][$1].value.description },
            isFindable: isFindable,
            preferred: markers,
            reserved: reserved,
            hasPreferred: !preferred.isEmpty,
            isPlainText: Element.self == String.self || Element.self == Character.self)
    }
}

/// Assigns one marker character to each distinct element (by id).
///
/// When every element's text is one character that is not special in the
/// language, that character is its marker ("direct"); otherwise elements
/// get letters `a`, `b`, … in order of first appearance, listed in a legend.
struct MarkerTable {
    /// Per element id, its marker.
    private(set) var markers: [Character] = []
    private(set) var isDirect = true

    static func isSpecial(_ character: Character) -> Bool {
        character.isWhitespace || "-|#()^!".contains(character)
    }

    /// When `elements` has preferred markers (an expectation's `values`
    /// map), every element gets a letter marker and those elements keep
    /// their markers.
    init(_ elements: MarbleElements, forceLegend: Bool = false) {
        if elements.hasPreferred {
            var generator = LegendMarkers()
            var used = Set(elements.reserved)
            markers.reserveCapacity(elements.count)
            for id in 0..<elements.count {
                if let marker = elements.preferred[id] {
                    markers.append(marker)
                    continue
                }
                var marker = generator.next()
                while used.contains(marker) { marker = generator.next() }
                used.insert(marker)
                markers.append(marker)
            }
            isDirect = false
            return
        }
        var direct = !forceLegend
        if direct {
            var seen = Set<Character>()
            for id in 0..<elements.count {
                let text = elements.text(id)
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
            markers = (0..<elements.count).map { _ in generator.next() }
        }
        isDirect = direct
    }

    /// Which element ids the timeline uses.
    func usedEntries(_ timeline: MarbleTimeline, _ elements: MarbleElements) -> [Bool] {
        var flags = [Bool](repeating: false, count: markers.count)
        for kind in timeline.kinds where kind >= 0 && elements.isFindable[kind] { flags[kind] = true }
        return flags
    }

    /// The legend for the elements flagged in `used` (nil when direct).
    func legend(_ used: [Bool], _ elements: MarbleElements) -> String? {
        guard !isDirect else { return nil }
        let shown = markers.indices.filter { used[$0] }
        guard !shown.isEmpty else { return nil }
        return shown.map { "\(markers[$0]) = \(elements.legendText($0))" }.joined(separator: ", ")
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
    public static func print<Element: Equatable>(
        _ events: [Recorded<Event<Element>>], frame: Duration = .milliseconds(1)
    ) -> PrintedMarbles<Element> {
        let ids = MarbleIDs([events])
        let elements = ids.elements()
        let printed = print(ids.timelines[0], elements, frame: frame)
        return PrintedMarbles(
            diagram: printed.diagram, temperature: printed.temperature,
            values: printed.values.reduce(into: [:]) { $0[$1.marker] = ids.distinct[$1.id] },
            error: ids.timelines[0].firstError, legend: printed.legend, isExact: printed.isExact,
            columns: printed.columns)
    }

    /// ``print(_:frame:)`` of a timeline of element ids.
    static func print(_ timeline: MarbleTimeline, _ elements: MarbleElements, frame: Duration) -> MarbleLayout {
        let table = MarkerTable(elements)
        let printed = layout(timeline, table: table, elements: elements, frame: frame)
        if !printed.isExact, table.isDirect {
            // A direct marker may have formed a duration token (`5m`); letters cannot.
            let lettered = layout(timeline, table: MarkerTable(elements, forceLegend: true), elements: elements, frame: frame)
            if lettered.isExact { return lettered }
        }
        return printed
    }

    static func layout(
        _ timeline: MarbleTimeline, table: MarkerTable, elements: MarbleElements, frame: Duration
    ) -> MarbleLayout {
        let frameAttos = frame > .zero ? frame.totalAttoseconds : MarbleDuration.attosPerMillisecond
        let times = timeline.times.map { $0.attoseconds(frame: frameAttos) }
        let shift = max(0, -(times.min() ?? 0))
        let hot = shift > 0
        var exact = true

        // Groups of consecutive same-time events, in raw (shifted) time: each
        // group's markers are `markers[start..<start + count]` (one array for
        // all of them, not one per group: a long timeline has many groups).
        var markers: [Character] = []
        markers.reserveCapacity(timeline.count + 1)
        var groups: [(time: Int128, start: Int, count: Int, isPoint: Bool)] = []
        for (kind, time) in zip(timeline.kinds, times) {
            let marker: Character =
                kind >= 0
                ? (elements.isFindable[kind] ? table.markers[kind] : "?") : kind == MarbleTimeline.completed ? "|" : "#"
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

        let used = table.usedEntries(timeline, elements)
        let plainText = table.isDirect && elements.isPlainText
        var values: [(marker: Character, id: Int)] = []
        if !plainText {
            for id in used.indices where used[id] { values.append((table.markers[id], id)) }
        }
        if exact, !provablyExact(text, timeline, hot: hot, markers: table.markers.count) {
            exact = readsBack(text, hot: hot, timeline, table: table, used: used, elements: elements, frame: frameAttos)
        }
        return MarbleLayout(
            diagram: text, temperature: hot ? .hot : .cold, values: values, legend: table.legend(used, elements),
            isExact: exact, columns: columns)
    }

    /// Whether `text` read back gives exactly the events of `timeline`: the
    /// same times, each value marker the same element,
    /// each `#` the timeline's first error, equal to the event's error.
    static func readsBack(
        _ text: String, hot: Bool, _ timeline: MarbleTimeline, table: MarkerTable, used: [Bool],
        elements: MarbleElements, frame: Int128
    ) -> Bool {
        var ids = [Character: Int]()
        for id in used.indices where used[id] { ids[table.markers[id]] = id }
        // Read through the non-generic scan, not `parse` for `Int` ids: that
        // would compile a copy of the generic parser for `Int`
        // (Docs/Performance.md, "Build time"). Each marker is checked as the
        // scan finds it; its time only after the scan, relative to the `^`
        // (as `parseShifted` takes times, which is right for every diagram).
        // A marker with no id, or a time out of range, is text that does not
        // read back, as when `parse` threw for it.
        guard let scanner = try? MarbleScanner(text, mode: hot ? .hot : .cold, frame: Duration(totalAttoseconds: frame))
        else { return false }
        var matches = true
        var index = 0
        var origin: Int128 = 0
        var foundOrigin = false
        var rawTimes: [Int128] = []
        rawTimes.reserveCapacity(timeline.count)
        do throws(MarbleError) {
            try scanner.scanSpecialized { item in
                guard matches else { return }
                let kind: Int
                switch item.marker {
                case .subscribe:
                    if !foundOrigin { (origin, foundOrigin) = (item.time, true) }
                    return
                case .unsubscribe: return
                case .completed: kind = MarbleTimeline.completed
                case .error: kind = MarbleTimeline.errorKind(0)
                case .value(let marker):
                    guard let id = ids[marker] else {
                        matches = false
                        return
                    }
                    kind = id
                }
                guard index < timeline.count else {
                    matches = false
                    return
                }
                let expected = timeline.kinds[index]
                if kind == MarbleTimeline.completed || kind >= 0 {
                    matches = kind == expected
                } else {
                    matches = expected < MarbleTimeline.completed && timeline.firstError.map {
                        errorsAreEqual($0, timeline.errors[MarbleTimeline.errorIndex(expected)])
                    } == true
                }
                rawTimes.append(item.time)
                index += 1
            }
        } catch {
            return false
        }
        guard matches, index == timeline.count else { return false }
        for (index, raw) in rawTimes.enumerated() {
            guard let time = try? scanner.testTime(raw - origin, position: 0), time == timeline.times[index] else {
                return false
            }
        }
        return true
    }

    /// Whether a layout with groups in order is certain to read back as
    /// the timeline without reading it: one token with no whitespace (so no
    /// duration, unless the whole text looks like one), cold, nothing after
    /// a terminal event, and one marker per element. Everything else is
    /// checked by reading the text back; this only spares long timelines a
    /// second parse.
    static func provablyExact(_ text: String, _ timeline: MarbleTimeline, hot: Bool, markers: Int) -> Bool {
        guard !hot, markers <= 52 + 25 + 0x5000 else { return false }
        if let last = text.last, last == "s" || last == "m" { return false }
        guard !text.utf8.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) || $0 >= 0x80 }) else { return false }
        guard let end = timeline.kinds.firstIndex(where: { $0 < 0 }) else { return true }
        return end == timeline.count - 1
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
