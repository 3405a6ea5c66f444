import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TickIndicators
import TickTesting

/// Parses `text` as XML; returns the element names in document order, or nil when it does not parse.
func parseXML(_ text: String) -> [String]? {
    final class Collector: NSObject, XMLParserDelegate {
        var names: [String] = []
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            names.append(elementName)
        }
    }
    let parser = XMLParser(data: Data(text.utf8))
    let collector = Collector()
    parser.delegate = collector
    return parser.parse() ? collector.names : nil
}

@Suite struct ActivityIndicatorButtonSVGTests {
    @Test func everyGalleryImageParsesAsXML() {
        for (name, svg) in ActivityIndicatorButtonGallery.images() {
            let elements = parseXML(svg)
            #expect(elements != nil, "\(name) does not parse")
            #expect(elements?.first == "svg", "\(name)")
        }
    }

    @Test func progressRingShapeFollowsTheStroke() {
        let (scheduler, button) = makeButton()
        #expect(!ActivityIndicatorButtonSVG.render(button.appearance).contains("<path"))  // inactive: no ring
        button.update(animated: false) { $0.setProgress(0.25) }
        let quarter = ActivityIndicatorButtonSVG.render(button.appearance)
        // 35 pt button + 6 pt margin: centre (23.5, 23.5), ring radius 15; a quarter from the top to the right
        #expect(quarter.contains("<path d=\"M 23.5 8.5 A 15 15 0 0 1 38.5 23.5\""))
        button.update(animated: false) { $0.setProgress(1) }
        let full = ActivityIndicatorButtonSVG.render(button.appearance)
        #expect(!full.contains("<path") && full.contains("r=\"15\""))
        button.update { $0.progressBarStyle = .spinning }
        scheduler.advance(to: at(1700))  // cycle boundary: nothing stroked
        #expect(!ActivityIndicatorButtonSVG.render(button.appearance).contains("<path"))
    }

    @Test func renderingIsDeterministic() {
        let (scheduler, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        scheduler.advance(to: at(333))
        let a = ActivityIndicatorButtonSVG.render(button.appearance)
        let b = ActivityIndicatorButtonSVG.render(button.appearance(at: at(333)))
        #expect(a == b)
        #expect(a.range(of: #"\d\.\d{4}"#, options: .regularExpression) == nil)  // at most 3 decimals
    }

    @Test func stripHasOneFramePerStepIncludingTheEnd() throws {
        let (_, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        let svg = ActivityIndicatorButtonSVG.renderStrip(of: button, from: at(0), to: at(1700), step: .milliseconds(100))
        let elements = try #require(parseXML(svg))
        #expect(elements.filter { $0 == "text" }.count == 18)
        #expect(svg.contains(">0.000s<") && svg.contains(">1.700s<") && svg.contains(">0.900s<"))
        let offStep = ActivityIndicatorButtonSVG.renderStrip(of: button, from: at(0), to: at(250), step: .milliseconds(100))
        #expect(parseXML(offStep)?.filter { $0 == "text" }.count == 3)
    }

    @Test func badStepsAreReportedAsMisuse() {
        let (_, button) = makeButton()
        withKnownIssue {
            let one = ActivityIndicatorButtonSVG.renderStrip(of: button, from: at(0), to: at(100), step: .zero)
            #expect(parseXML(one)?.filter { $0 == "text" }.count == 1)
        }
        withKnownIssue {
            let capped = ActivityIndicatorButtonSVG.renderStrip(of: button, from: at(0), to: at(10_000), step: .milliseconds(1))
            #expect(parseXML(capped)?.filter { $0 == "text" }.count == ActivityIndicatorButtonSVG.maximumStripFrames)
        }
    }

    @Test func labelsAreEscaped() throws {
        let (_, button) = makeButton()
        let svg = ActivityIndicatorButtonSVG.renderRow([(button.appearance, "a<b & \"c\"")])
        #expect(parseXML(svg) != nil)
        #expect(svg.contains("a&lt;b &amp; &quot;c&quot;"))
    }

    @Test func descriptionUsesThreeDecimals() {
        let (_, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        let text = button.appearance(at: at(450)).description
        #expect(text.contains("stroke 0.125–0.500"))
        #expect(text.contains("rotation 0.942"))  // 2π × 0.45 / 3
    }
}
