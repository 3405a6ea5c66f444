import Testing
import TickTesting

/// `Marbles.svg`'s horizontal scale.
@Suite struct MarbleSVGTests {
    // MARK: SVG time is proportional within a drawing (issue 13)

    /// The x position of each event, by its time.
    private func eventPositions(_ svg: String) -> [String: Int] {
        var positions: [String: Int] = [:]
        for line in svg.split(separator: "\n") where line.contains("class=\"event next\"") {
            guard let time = line.firstMatch(of: /data-time="([^"]+)"/)?.1,
                let x = line.firstMatch(of: /cx="(-?[0-9]+)"/)?.1
            else { continue }
            positions[String(time)] = Int(x)
        }
        return positions
    }

    @Test func svgGapsAreProportionalToTime() throws {
        let svg = try Marbles.svg(["a 99ms b 699ms c"])
        let x = eventPositions(svg)
        let (a, b, c) = (try #require(x["0ms"]), try #require(x["100ms"]), try #require(x["800ms"]))
        // 100 ms and 700 ms gaps: one seventh of the width, within rounding.
        #expect(abs((c - b) - 7 * (b - a)) <= 3, "\(a) \(b) \(c)")
        #expect(b - a >= 28)
        #expect(!svg.contains("class=\"break\""))
    }

    @Test func svgCompressesOnlyVeryLongGapsAndLabelsThem() throws {
        let svg = try Marbles.svg(["a-b 10m c"])
        let x = eventPositions(svg)
        let (a, b, c) = (try #require(x["0ms"]), try #require(x["2ms"]), try #require(x["600003ms"]))
        #expect(b - a >= 28)
        // Ten minutes are not drawn at the scale of 2 ms: a break, labelled.
        #expect(c - b < 200)
        #expect(svg.contains("class=\"break\""))
        #expect(svg.contains(">≈ 600001ms</text>"))
    }
}
