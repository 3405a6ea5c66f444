// Drawing SVG is `@_optimize(none)`: a picture is drawn once per failed
// expectation or `svg` call, and optimizing the renderer's string building
// was the largest single cost of a release build of TickTesting
// (Docs/Performance.md, "Build time"). Parsing the diagrams is optimized as
// usual.
extension Marbles {
    /// Draws diagrams as an SVG marble diagram, one row per diagram (for
    /// example an operator's input above its output), all on one time scale.
    ///
    /// Each row has its diagram text as a caption, a timeline ending in an
    /// arrow, and one `<g class="event …">` element per event: a labelled
    /// circle for `next`, a vertical bar for completion, a cross for an error.
    /// Events in the same frame stack downwards. A hot diagram's `^` is drawn
    /// as a dashed subscription line. Times are on a shared axis at the
    /// bottom. Time is proportional within the drawing; only a gap that
    /// would make it too wide (over about 1,400 px) is drawn short, as a
    /// break in every timeline (two slanted bars) with its real duration
    /// written on the axis.
    ///
    /// - Parameters:
    ///   - diagrams: the diagrams, top to bottom; markers are the labels.
    ///   - temperature: how to read every diagram (`.hot` allows `^`).
    ///   - frame: the duration of one frame.
    /// - Throws: the ``MarbleError`` of the first diagram that cannot be read.
    @_optimize(none)
    public static func svg(
        _ diagrams: [String], _ temperature: Temperature = .cold, frame: Duration = .milliseconds(1)
    ) throws(MarbleError) -> String {
        let frameAttos = frame.totalAttoseconds
        var rows: [SVGRow] = []
        for diagram in diagrams {
            rows.append(try SVGRow(diagram: diagram, caption: diagram, temperature, frame: frame))
        }
        return render(rows, frameAttos: frameAttos)
    }

    /// One row of an SVG diagram: its caption, its events (labels are the
    /// markers) and whether a `^` is drawn at time 0.
    struct SVGRow {
        var label: String
        var events: [(time: Int128, event: Event<String>)]
        var point: Bool

        @_optimize(none)  // cold: a failure picture or the `marbles svg` command (Docs/Performance.md, "Build time")
        init(diagram: String, caption: String, _ temperature: Temperature, frame: Duration) throws(MarbleError) {
            let frameAttos = frame.totalAttoseconds
            let events: [Recorded<Event<String>>] = try parse(diagram, temperature, frame: frame)
            self.label = caption
            self.events = events.map { ($0.time.attoseconds(frame: frameAttos), $0.value) }
            self.point = temperature == .hot && diagram.contains("^")
        }
    }

    /// A time marked across every row (a failure picture's first
    /// difference), with its label.
    struct SVGMark {
        var time: Int128
        var label: String
    }

    /// Draws `rows` on one time scale; `mark` adds a line across every row
    /// at its time, and each of `notes` a line of text under the axis.
    @_optimize(none)
    static func render(_ rows: [SVGRow], frameAttos: Int128, mark: SVGMark? = nil, notes: [String] = []) -> String {
        var times = Set(rows.flatMap { $0.events.map(\.time) })
        times.insert(0)
        if let mark { times.insert(mark.time) }
        let sorted = times.sorted()

        // x position of each distinct time: proportional to time within the
        // drawing (about 1,200 px for the whole timeline, with at least a
        // circle's room between neighbours). Only a very long gap (over 20
        // frames and over 20 times the median gap) is drawn short, marked as
        // a break with its real duration.
        let gaps = zip(sorted, sorted.dropFirst()).map { Double($1 - $0) / Double(frameAttos) }
        let ordered = gaps.sorted()
        let median = ordered.isEmpty ? 1 : ordered[(ordered.count - 1) / 2]
        let broken = Set(gaps.indices.filter { gaps[$0] > 20 && gaps[$0] > 20 * median })
        let brokenWidth = 70.0
        let kept = gaps.indices.filter { !broken.contains($0) }.reduce(0) { $0 + gaps[$1] }
        let scale = min(32, 1_200 / max(kept, 1e-9))
        var x: [Int128: Int] = [:]
        var breaks: [(x: Int, label: String)] = []
        var position = 40.0
        for (index, time) in sorted.enumerated() {
            if index > 0 {
                let gap = index - 1
                if broken.contains(gap) {
                    breaks.append((Int(position + brokenWidth / 2), MarbleDuration.describe(attoseconds: time - sorted[gap])))
                    position += brokenWidth
                } else {
                    position += max(gaps[gap] * scale, 28)
                }
            }
            x[time] = Int(position.rounded())
        }
        let end = Int(position.rounded()) + 60
        // A failure picture's captions and notes are wider than its timeline
        // when the diagrams are short (about 8 px per character).
        let texts = notes + (mark.map { [$0.label] + rows.map(\.label) } ?? [])
        let width = max(end + 20, (texts.map { $0.count * 8 + 20 }.max() ?? 0))

        var body: [String] = []
        var y = 10
        for row in rows {
            var stack: [Int128: Int] = [:]
            for entry in row.events { stack[entry.time, default: 0] += 1 }
            let depth = stack.values.max() ?? 1
            let lineY = y + 46
            body.append("<g class=\"row\">")
            // A failure picture's captions keep their spaces, so `expected:`
            // and `actual:` diagrams line up.
            let preserve = mark == nil ? "" : " xml:space=\"preserve\""
            body.append("<text class=\"caption\" x=\"10\" y=\"\(y + 14)\"\(preserve)>\(escape(row.label))</text>")
            body.append("<line class=\"timeline\" x1=\"10\" y1=\"\(lineY)\" x2=\"\(end)\" y2=\"\(lineY)\"/>")
            body.append(
                "<polygon class=\"arrow\" points=\"\(end),\(lineY - 6) \(end + 12),\(lineY) \(end),\(lineY + 6)\"/>")
            for mark in breaks {
                // A gap in the timeline between two slanted bars.
                body.append(
                    "<g class=\"break\"><rect x=\"\(mark.x - 9)\" y=\"\(lineY - 12)\" width=\"18\" height=\"24\" fill=\"white\"/><line x1=\"\(mark.x - 12)\" y1=\"\(lineY + 10)\" x2=\"\(mark.x - 4)\" y2=\"\(lineY - 10)\"/><line x1=\"\(mark.x + 4)\" y1=\"\(lineY + 10)\" x2=\"\(mark.x + 12)\" y2=\"\(lineY - 10)\"/></g>"
                )
            }
            if row.point, let px = x[0] {
                body.append(
                    "<g class=\"subscription\"><line x1=\"\(px)\" y1=\"\(lineY - 26)\" x2=\"\(px)\" y2=\"\(lineY + 26)\" stroke-dasharray=\"4 3\"/><text x=\"\(px + 8)\" y=\"\(lineY - 16)\">^</text></g>"
                )
            }
            var placed: [Int128: Int] = [:]
            for entry in row.events {
                let cx = x[entry.time] ?? 0
                let level = placed[entry.time, default: 0]
                placed[entry.time] = level + 1
                let cy = lineY + level * 30
                let time = escape(MarbleDuration.describe(attoseconds: entry.time))
                switch entry.event {
                case .next(let label):
                    body.append(
                        "<g class=\"event next\" data-time=\"\(time)\"><circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"13\" fill=\"\(color(for: label))\"/><text x=\"\(cx)\" y=\"\(cy + 5)\" text-anchor=\"middle\">\(escape(label))</text></g>"
                    )
                case .completed:
                    body.append(
                        "<g class=\"event completed\" data-time=\"\(time)\"><line x1=\"\(cx)\" y1=\"\(cy - 14)\" x2=\"\(cx)\" y2=\"\(cy + 14)\"/></g>"
                    )
                case .error:
                    body.append(
                        "<g class=\"event error\" data-time=\"\(time)\"><line x1=\"\(cx - 10)\" y1=\"\(cy - 10)\" x2=\"\(cx + 10)\" y2=\"\(cy + 10)\"/><line x1=\"\(cx - 10)\" y1=\"\(cy + 10)\" x2=\"\(cx + 10)\" y2=\"\(cy - 10)\"/></g>"
                    )
                }
            }
            body.append("</g>")
            y += 70 + (depth - 1) * 30
        }
        if let mark, let px = x[mark.time] {
            // A dashed line through every row at the marked time.
            // Its label goes under the axis, with the notes.
            body.append(
                "<g class=\"difference\" data-time=\"\(escape(MarbleDuration.describe(attoseconds: mark.time)))\"><line x1=\"\(px)\" y1=\"30\" x2=\"\(px)\" y2=\"\(y)\" stroke-dasharray=\"5 4\"/></g>"
            )
        }
        // The shared time axis.
        body.append("<g class=\"axis\">")
        var lastLabelEnd = Int.min
        for time in sorted {
            let px = x[time] ?? 0
            let label = MarbleDuration.describe(attoseconds: time)
            // Skip a label that would overlap the previous one.
            let halfWidth = label.count * 3 + 2
            guard px - halfWidth >= lastLabelEnd else { continue }
            lastLabelEnd = px + halfWidth
            body.append(
                "<text class=\"tick\" x=\"\(px)\" y=\"\(y + 12)\" text-anchor=\"middle\">\(escape(MarbleDuration.describe(attoseconds: time)))</text>"
            )
        }
        for mark in breaks {
            body.append(
                "<text class=\"break-label\" x=\"\(mark.x)\" y=\"\(y + 26)\" text-anchor=\"middle\">≈ \(escape(mark.label))</text>")
        }
        body.append("</g>")
        var height = y + (breaks.isEmpty ? 24 : 38)
        for (index, note) in ((mark.map { [$0.label] } ?? []) + notes).enumerated() {
            let kind = index == 0 && mark != nil ? "note difference-label" : "note"
            body.append("<text class=\"\(kind)\" x=\"10\" y=\"\(height + 4)\">\(escape(note))</text>")
            height += 18
        }
        let style = """
            <style>
            text { font-family: Menlo, Consolas, monospace; font-size: 13px; fill: #222; }
            .caption { fill: #555; }
            .tick { font-size: 10px; fill: #888; }
            .break line { stroke: #444; stroke-width: 2; }
            .break-label { font-size: 10px; fill: #c0392b; }
            .timeline { stroke: #444; stroke-width: 2; }
            .arrow { fill: #444; }
            .next circle { stroke: #222; stroke-width: 1.5; }
            .completed line { stroke: #222; stroke-width: 3; }
            .error line { stroke: #c0392b; stroke-width: 3; }
            .subscription line { stroke: #2c7be5; stroke-width: 1.5; }
            .subscription text { fill: #2c7be5; }\(mark == nil ? "" : "\n.difference line { stroke: #c0392b; stroke-width: 2; }")\(notes.isEmpty && mark == nil ? "" : "\n.note { fill: #555; font-size: 11px; }\n.note.difference-label { fill: #c0392b; }")
            </style>
            """
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            \(style)
            <rect width="100%" height="100%" fill="white"/>
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    /// Text safe inside XML elements and attributes.
    @_optimize(none)
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0.
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                    scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value)
                {
                    result += " "
                } else {
                    result.append(character)
                }
            }
        }
        return result
    }

    /// A stable pastel colour per label.
    @_optimize(none)
    static func color(for label: String) -> String {
        let palette = ["#ffd166", "#a0e7e5", "#b4f8c8", "#fbe7c6", "#cdb4db", "#ffafcc", "#bde0fe", "#f1c0e8"]
        let sum = label.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        return palette[sum % palette.count]
    }
}
