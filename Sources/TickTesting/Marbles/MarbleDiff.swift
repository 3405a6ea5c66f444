/// The comparison of an expected and an actual timeline, as failure messages
/// show it.
///
/// ```text
/// expected: --a--b--|
/// actual:   --a--c--|
///                ^ first difference at frame 5 (5ms)
/// differences:
///   frame 5 (5ms): expected next(b), actual next(c)
/// ```
public struct MarbleDiff: Sendable, CustomStringConvertible {
    /// Whether the two timelines are the same.
    public let isEqual: Bool
    /// The aligned diagrams, the caret and the list of differing events; or
    /// "no differences" and the diagram when they are equal.
    public let description: String
    /// A one-line summary for a failure's title: `marble mismatch at frame 5`.
    public var title: String { firstDifference.map { "marble mismatch at \($0)" } ?? "marble mismatch" }
    /// Where the timelines first differ, e.g. `frame 5`; nil when equal.
    let firstDifference: String?
    /// What the failure picture draws (MarbleFailurePicture.swift): both
    /// whole diagrams, their legend and the time of the first difference;
    /// nil for a subscription diff.
    let picture: Picture?

    /// The timelines of a mismatch as the failure picture draws them.
    struct Picture: Sendable {
        let expected: String
        let actual: String
        let legend: String?
        /// In attoseconds from time 0.
        let firstDifference: Int128
        let frame: Duration
    }

    /// The failure picture of this diff: an SVG of the expected timeline
    /// above the actual one, on one time scale, the first difference marked
    /// (what a failing marble expectation attaches to its test, see
    /// ``MarbleFailurePictures``); nil when the timelines are equal.
    public var svg: String? { MarbleFailurePictures.svg(for: self) }

    init(isEqual: Bool, description: String, firstDifference: String? = nil, picture: Picture? = nil) {
        self.isEqual = isEqual
        self.description = description
        self.firstDifference = firstDifference
        self.picture = picture
    }
}

extension Marbles {
    /// Compares two timelines. Both are printed with one marker table, so a
    /// marker means the same element in both diagrams.
    ///
    /// Events are compared per time: at each time where the lists of events
    /// differ, the diff lists both. The caret sits under the first column
    /// where the diagram texts differ; when the texts are the same (for
    /// example two different errors, both `#`) it sits under the first
    /// differing event and the message says that the values differ.
    ///
    /// - Parameter values: markers to keep for elements (the `values` map the
    ///   expected diagram was written with), so the printed expected diagram
    ///   uses the test's own letters; other elements get free letters.
    public static func diff<Element: Equatable>(
        expected: [Recorded<Event<Element>>], actual: [Recorded<Event<Element>>],
        values: [Character: Element] = [:], frame: Duration = .milliseconds(1)
    ) -> MarbleDiff {
        let ids = MarbleIDs([expected, actual])
        return diff(ids.timelines[0], ids.timelines[1], ids.elements(preferred: values), frame: frame)
    }

    /// ``diff(expected:actual:values:frame:)`` of two timelines of element
    /// ids (one table of ids for both).
    static func diff(
        _ expected: MarbleTimeline, _ actual: MarbleTimeline, _ elements: MarbleElements, frame: Duration
    ) -> MarbleDiff {
        let frameAttos = frame > .zero ? frame.totalAttoseconds : MarbleDuration.attosPerMillisecond
        // Every element appears in one of the two timelines (the legend lists
        // those it can name).
        let all = elements.isFindable
        var table = MarkerTable(elements)
        var left = layout(expected, table: table, elements: elements, frame: frame)
        var right = layout(actual, table: table, elements: elements, frame: frame)
        if table.isDirect, !(left.isExact && right.isExact) {
            let lettered = MarkerTable(elements, forceLegend: true)
            let (l, r) = (
                layout(expected, table: lettered, elements: elements, frame: frame),
                layout(actual, table: lettered, elements: elements, frame: frame)
            )
            if l.isExact && r.isExact { (table, left, right) = (lettered, l, r) }
        }

        if !(left.isExact && right.isExact), elements.hasPreferred {
            // The test's own letters cannot be written back (e.g. a marker that
            // forms a duration): fall back to fresh letters.
            let lettered = MarkerTable(elements.withoutPreferred, forceLegend: true)
            let (l, r) = (
                layout(expected, table: lettered, elements: elements, frame: frame),
                layout(actual, table: lettered, elements: elements, frame: frame)
            )
            if l.isExact && r.isExact { (table, left, right) = (lettered, l, r) }
        }
        let differences = eventDifferences(expected, actual, elements, frame: frameAttos)
        guard let first = differences.first else {
            return MarbleDiff(
                isEqual: true,
                description: "no differences:\n  \(left.diagram)" + (table.legend(all, elements).map { "\nvalues: \($0)" } ?? ""))
        }
        let sameText = left.diagram == right.diagram
        let column: Int
        if sameText {
            column = (left.columns.first { $0.time == first.time } ?? right.columns.first { $0.time == first.time })?.column ?? 0
        } else {
            column = firstDifferentColumn(left.diagram, right.diagram)
        }
        var lines: [String]
        if max(MarbleText.count(left.diagram), MarbleText.count(right.diagram)) <= longestDiffLine {
            lines = [
                "expected: \(left.diagram)",
                "actual:   \(right.diagram)",
                String(repeating: " ", count: 10 + column) + "^ first difference at \(describe(first.time, frame: frameAttos))",
            ]
        } else {
            lines = window(left, right, column: column, firstTime: first.time, frame: frameAttos)
        }
        let legend = table.legend(all, elements)
        if let legend { lines.append("values: \(legend)") }
        lines.append(sameText ? "the diagrams look the same, but these events differ:" : "differences:")
        for difference in differences.prefix(longestDifferenceList) {
            lines.append(
                "  \(describe(difference.time, frame: frameAttos)): expected \(difference.expected), actual \(difference.actual)")
        }
        if differences.count > longestDifferenceList {
            lines.append("  … and \(differences.count - longestDifferenceList) more frames that differ")
        }
        let firstFrame = describe(first.time, frame: frameAttos)
        return MarbleDiff(
            isEqual: false, description: lines.joined(separator: "\n"),
            firstDifference: String(firstFrame.prefix { $0 != "(" }.dropLast()),
            picture: MarbleDiff.Picture(
                expected: left.diagram, actual: right.diagram, legend: legend,
                firstDifference: first.time, frame: frame > .zero ? frame : .milliseconds(1)))
    }

    /// Diagrams longer than this many characters are shown as a window
    /// around the first difference.
    static let longestDiffLine = 120
    /// At most this many differing frames are listed.
    static let longestDifferenceList = 20

    /// The region of both diagrams around the first difference (at display
    /// column `column`), with the frame where the window starts, so a long
    /// timeline stays readable.
    private static func window(
        _ left: MarbleLayout, _ right: MarbleLayout, column: Int, firstTime: Int128, frame: Int128
    ) -> [String] {
        let before = 40
        let after = 60
        let start = max(0, column - before)
        // The last event group at or before the window's start gives its time.
        var anchor: (time: Int128, column: Int)?
        for columns in [left.columns, right.columns] {
            for entry in columns where entry.column <= start && entry.column > (anchor?.column ?? -1) { anchor = entry }
        }
        func cut(_ text: String) -> String {
            var result = start > 0 ? "…" : ""
            if MarbleText.isPlainASCII(text) {
                // One column a byte: cut the bytes (a long diagram is not walked a character at a time).
                let utf8 = Array(text.utf8)
                let end = min(utf8.count, column + after)
                if start < end { result += String(decoding: utf8[start..<end], as: UTF8.self) }
                if end < utf8.count { result += "…" }
                return result
            }
            var position = 0
            for character in text {
                let width = MarbleText.width(of: character)
                defer { position += width }
                if position < start { continue }
                if position >= column + after {
                    result += "…"
                    break
                }
                result.append(character)
            }
            return result
        }
        let prefix = start > 0 ? 1 : 0
        var lines = [
            "expected: \(cut(left.diagram))",
            "actual:   \(cut(right.diagram))",
            String(repeating: " ", count: 10 + prefix + column - start) + "^ first difference at \(describe(firstTime, frame: frame))",
        ]
        if start > 0 {
            let anchorText = anchor.map { "; the event group at its column \($0.column - start + prefix) is at \(describe($0.time, frame: frame))" } ?? ""
            lines.append(
                "(a window of the diagrams: from display column \(start)\(anchorText); \(MarbleText.count(left.diagram)) and \(MarbleText.count(right.diagram)) characters in all)")
        }
        return lines
    }

    /// Compares two diagrams of `String` markers (what the `marbles diff`
    /// command does).
    ///
    /// - Throws: ``MarbleError`` when either diagram cannot be read.
    public static func diff(
        expected: String, actual: String, _ temperature: Temperature = .cold, frame: Duration = .milliseconds(1)
    ) throws(MarbleError) -> MarbleDiff {
        let left: [Recorded<Event<String>>] = try parse(expected, temperature, frame: frame)
        let right: [Recorded<Event<String>>] = try parse(actual, temperature, frame: frame)
        return diff(expected: left, actual: right, frame: frame)
    }

    /// Compares expected and actual subscription logs, ignoring order.
    public static func diff(
        expectedSubscriptions: [Subscription], actualSubscriptions: [Subscription],
        frame: Duration = .milliseconds(1)
    ) -> MarbleDiff {
        func order(_ a: Subscription, _ b: Subscription) -> Bool {
            if a.subscribe != b.subscribe { return a.subscribe < b.subscribe }
            switch (a.unsubscribe, b.unsubscribe) {
            case (let x?, let y?): return x < y
            case (.some, nil): return true
            default: return false
            }
        }
        let expected = expectedSubscriptions.sorted(by: order)
        let actual = actualSubscriptions.sorted(by: order)
        let render = { (list: [Subscription]) -> String in
            list.isEmpty ? "  (none)" : list.map { "  \(print($0, frame: frame))   \($0)" }.joined(separator: "\n")
        }
        if expected == actual {
            return MarbleDiff(isEqual: true, description: "no differences:\n" + render(actual))
        }
        return MarbleDiff(
            isEqual: false,
            description: "expected subscriptions:\n\(render(expected))\nactual subscriptions:\n\(render(actual))")
    }

    struct EventDifference {
        var time: Int128
        var expected: String
        var actual: String
    }

    /// Per time (in order), the events each side has when they differ.
    /// Linear after sorting each side by time (stable; recordings are
    /// usually sorted already).
    static func eventDifferences(
        _ expected: MarbleTimeline, _ actual: MarbleTimeline, _ elements: MarbleElements, frame: Int128
    ) -> [EventDifference] {
        /// The side's events by time: (time, index into the timeline).
        func timed(_ timeline: MarbleTimeline) -> [(time: Int128, index: Int)] {
            let times = timeline.times.map { $0.attoseconds(frame: frame) }
            if zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) {
                return times.enumerated().map { ($1, $0) }
            }
            return stableOrder(times).map { (times[$0], $0) }
        }
        let left = timed(expected)
        let right = timed(actual)
        func text(_ events: ArraySlice<(time: Int128, index: Int)>, _ timeline: MarbleTimeline) -> String {
            guard !events.isEmpty else { return "nothing" }
            return events.map { elements.eventDescription(timeline.side, $0.index) }.joined(separator: ", ")
        }
        func same(_ l: Int, _ r: Int) -> Bool {
            let (a, b) = (expected.kinds[l], actual.kinds[r])
            if a >= 0 || b >= 0 || a == MarbleTimeline.completed || b == MarbleTimeline.completed { return a == b }
            return errorsAreEqual(
                expected.errors[MarbleTimeline.errorIndex(a)], actual.errors[MarbleTimeline.errorIndex(b)])
        }
        var differences: [EventDifference] = []
        var (i, j) = (0, 0)
        while i < left.count || j < right.count {
            let time = min(i < left.count ? left[i].time : .max, j < right.count ? right[j].time : .max)
            var (iEnd, jEnd) = (i, j)
            while iEnd < left.count, left[iEnd].time == time { iEnd += 1 }
            while jEnd < right.count, right[jEnd].time == time { jEnd += 1 }
            let (l, r) = (left[i..<iEnd], right[j..<jEnd])
            if !l.elementsEqual(r, by: { same($0.index, $1.index) }) {
                differences.append(EventDifference(time: time, expected: text(l, expected), actual: text(r, actual)))
            }
            (i, j) = (iEnd, jEnd)
        }
        return differences
    }

    /// `frame 5 (5ms)`, `frame 10+0.2ms (10.2ms)`. (`package`: the `marbles`
    /// tool's `explain` writes its times with it.)
    package static func describe(_ time: Int128, frame: Int128) -> String {
        var frames = time / frame
        var rest = time % frame
        if rest < 0 {
            frames -= 1
            rest += frame
        }
        let frameText = rest == 0 ? "\(frames)" : "\(frames)+\(MarbleDuration.describe(attoseconds: rest))"
        return "frame \(frameText) (\(MarbleDuration.describe(attoseconds: time)))"
    }

    /// The display column of the first character where two texts differ.
    static func firstDifferentColumn(_ a: String, _ b: String) -> Int {
        if MarbleText.isPlainASCII(a), MarbleText.isPlainASCII(b) {
            // One character and one column a byte.
            return zip(a.utf8, b.utf8).prefix { $0 == $1 }.count
        }
        var column = 0
        var (i, j) = (a.startIndex, b.startIndex)
        while i < a.endIndex, j < b.endIndex, a[i] == b[j] {
            column += MarbleText.width(of: a[i])
            i = a.index(after: i)
            j = b.index(after: j)
        }
        return column
    }
}

/// The indices of `keys` in the order of their keys, equal keys in index
/// order (a stable sort). TickTesting's sorts by time go through this one
/// function, so that the module holds one copy of the standard library's
/// sort, not one per element type and comparison (Docs/Performance.md,
/// "Build time").
func stableOrder(_ keys: [Int128]) -> [Int] {
    var order = Array(keys.indices)
    order.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
    return order
}
