import Testing
import Tick
import TickTesting

/// Printing and diffing are linear (issue 16, item 4): on today's main these
/// sizes took minutes (the printer measured the whole text per event group
/// and searched the marker table linearly); linear, they take well under a
/// second even in a debug build. No timing assertion: a quadratic version
/// simply does not finish in any reasonable time.
@Suite struct MarbleScaleTests {
    static func timeline(_ count: Int, distinct: Int, changedAt: Int? = nil) -> [Recorded<Event<Int>>] {
        var events: [Recorded<Event<Int>>] = (0..<count).map { index in
            .next(TestTime(frames: index * 2, remainder: .zero), index == changedAt ? -1 : index % distinct)
        }
        events.append(.completed(TestTime(frames: count * 2, remainder: .zero)))
        return events
    }

    @Test func printingFiftyThousandEventsWithFiveThousandDistinctValues() throws {
        let events = Self.timeline(50_000, distinct: 5_000)
        let printed = Marbles.print(events)
        #expect(printed.isExact)
        #expect(printed.diagram.count == 100_001)
        let reread: [Recorded<Event<Int>>] = try Marbles.parse(printed.diagram, values: printed.values)
        #expect(reread == events)
    }

    @Test func diffOfLongTimelinesShowsTheRegionAroundTheFirstDifference() {
        let expected = Self.timeline(50_000, distinct: 40)
        let actual = Self.timeline(50_000, distinct: 40, changedAt: 30_000)
        let diff = Marbles.diff(expected: expected, actual: actual)
        #expect(!diff.isEqual)
        #expect(diff.title == "marble mismatch at frame 60000")
        let lines = diff.description.split(separator: "\n", omittingEmptySubsequences: false)
        // No line is the whole timeline: the diagrams are cut to a window.
        #expect(lines.allSatisfy { $0.count < 400 }, "\(lines.map(\.count).max() ?? 0)")
        #expect(lines[0].hasPrefix("expected: …"))
        #expect(lines[1].hasPrefix("actual:   …"))
        // The caret sits under the differing marker of the window.
        let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) } ?? -1
        let expectedLine = Array(lines[0])
        let actualLine = Array(lines[1])
        #expect(caret > 10 && expectedLine[caret] != actualLine[caret])
        #expect(lines[2].hasSuffix("^ first difference at frame 60000 (60000ms)"))
        #expect(lines[3].hasPrefix("(a window of the diagrams: from display column 59960"))
        #expect(diff.description.contains("  frame 60000 (60000ms): expected next(0), actual next(-1)"))
    }

    @Test func manyDifferencesAreListedUpToALimit() {
        let expected = Self.timeline(1_000, distinct: 3)
        let actual: [Recorded<Event<Int>>] = expected.map { recorded in
            Recorded(time: recorded.time, value: recorded.value.map { $0 + 1 })
        }
        let diff = Marbles.diff(expected: expected, actual: actual)
        #expect(diff.description.contains("  … and 980 more frames that differ"))
        #expect(diff.description.split(separator: "\n").count < 40)
    }
}
