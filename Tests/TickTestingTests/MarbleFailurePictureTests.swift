import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Tick
@testable import TickTesting

/// Failure pictures (MarbleFailurePicture.swift): what a failing marble
/// expectation attaches, the picture in Docs/Observation.md, and a real
/// failing test run in a child process that leaves the SVG in its
/// attachments folder.
@Suite(.checksResourceLeaks) struct MarbleFailurePictureTests {
    static let frame = Duration.milliseconds(100)
    static let values: [Character: Bool] = ["h": false, "v": true]
    /// Docs/Observation.md, "When an assertion fails": the test expects the
    /// spinner to hide at 700 ms; the model hides it at 800 ms (the page's
    /// output block shows these two diagrams in the diff text).
    static let expected = "h--v---h"
    static let actual = "h--v----h"

    static func spinnerDiff() throws -> MarbleDiff {
        Marbles.diff(
            expected: try Marbles.parse(expected, .hot, values: values, frame: frame),
            actual: try Marbles.parse(actual, .hot, values: values, frame: frame),
            values: values, frame: frame)
    }

    @Test func thePictureDrawsBothTimelinesAndMarksTheFirstDifference() throws {
        let svg = try #require(try Self.spinnerDiff().svg)
        let outline = try SVGOutline(svg)
        #expect(outline.captions == ["expected: h--v---h", "actual:   h--v----h"])
        #expect(outline.rows == [["h@0ms", "v@300ms", "h@700ms"], ["h@0ms", "v@300ms", "h@800ms"]])
        #expect(outline.difference == "700ms")
        #expect(outline.texts.contains("first difference at frame 7 (700ms)"))
    }

    @Test func equalTimelinesAndSubscriptionDiffsHaveNoPicture() throws {
        let same = Marbles.diff(
            expected: try Marbles.parse("a-b", .hot, values: ["a": 1, "b": 2]),
            actual: try Marbles.parse("a-b", .hot, values: ["a": 1, "b": 2]))
        #expect(same.svg == nil)
        let subscriptions = Marbles.diff(expectedSubscriptions: [Subscription(0, 3)], actualSubscriptions: [])
        #expect(!subscriptions.isEqual)
        #expect(subscriptions.svg == nil)
    }

    @Test func aLongGapIsDrawnShortInBothRows() throws {
        let diff = try Marbles.diff(expected: "a" + String(repeating: "-", count: 400) + "b", actual: "a-b")
        let outline = try SVGOutline(try #require(diff.svg))
        #expect(outline.rows == [["a@0ms", "b@401ms"], ["a@0ms", "b@2ms"]])
        #expect(outline.difference == "2ms")
    }

    @Test func theFileNameSaysWhereTheFailureIs() {
        let site = CallSite(fileID: "MyTests/Search Tests.swift", filePath: "/x/Search Tests.swift", line: 42, column: 9)
        #expect(MarbleFailurePictures.fileName(for: site) == "marble-mismatch-Search_Tests.swift-42.svg")
    }

    @Test func failuresSentToAHandlerAttachNothingAndSayNothingOfAPicture() {
        let messages = Locked<[String]>([])
        TestFailureReporter.withHandler({ failure in messages.withLock { $0.append(failure.message) } }) {
            let scheduler = TestScheduler()
            scheduler.expect(scheduler.cold("-a|")).toBe("-b|")
            scheduler.flush()
        }
        let all = messages.withLock { $0 }
        #expect(all.count == 1)
        #expect(all.allSatisfy { !$0.contains("picture:") })
    }

    /// Set TICK_REGENERATE_GALLERY=1 to write the file instead (then commit it).
    @Test func theCommittedPictureOfDocsObservationMatchesTheRenderer() throws {
        let svg = try #require(try Self.spinnerDiff().svg)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/images/observation-spinner-mismatch.svg")
        if ProcessInfo.processInfo.environment["TICK_REGENERATE_GALLERY"] == "1" {
            try Data(svg.utf8).write(to: url)
            return
        }
        let committed = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
        #expect(
            committed == svg,
            "Docs/images/observation-spinner-mismatch.svg drifted: run with TICK_REGENERATE_GALLERY=1 and commit it.")
    }

    // MARK: A failing test in a child process

    static let childVariable = "TICK_FAILURE_PICTURE_CHILD"

    /// The failing test the child process runs: skipped in every other run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TICK_FAILURE_PICTURE_CHILD"] == "1"))
    func failingMarbleAssertionRunByTheChildProcess() {
        let scheduler = TestScheduler(frame: Self.frame)
        let spinner = scheduler.hot(Self.actual, values: Self.values)
        scheduler.expect(spinner).toBe(Self.expected, values: Self.values)
        scheduler.flush()
    }

    #if os(Linux)
    /// Runs this test binary again (Linux: `swift build --build-tests` makes
    /// it an executable), as `swift test` does, with only the failing test
    /// above and an attachments folder.
    static func runChild(attachments: URL, environment extra: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [
            "--testing-library", "swift-testing",
            "--filter", "MarbleFailurePictureTests/failingMarbleAssertionRunByTheChildProcess",
            "--attachments-path", attachments.path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = "1"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tick-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aFailingTestRunLeavesThePictureInItsAttachmentsFolder() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try Self.runChild(attachments: folder, environment: [:])
        #expect(child.status != 0, "the child's marble assertion must fail")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let pictures = files.filter { $0.hasSuffix(".svg") }
        #expect(pictures.count == 1, "attachments: \(files)")
        let name = try #require(pictures.first)
        #expect(name.hasPrefix("marble-mismatch-MarbleFailurePictureTests.swift-"))
        let svg = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let outline = try SVGOutline(svg)
        #expect(outline.captions == ["expected: h--v---h", "actual:   h--v----h"])
        #expect(outline.rows == [["h@0ms", "v@300ms", "h@700ms"], ["h@0ms", "v@300ms", "h@800ms"]])
        #expect(outline.difference == "700ms")
        // The failure text says where the picture is.
        #expect(child.output.contains("attached to this test and written to \(folder.path)"), "\(child.output)")
    }

    @Test func theOffSwitchLeavesNoPicture() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try Self.runChild(attachments: folder, environment: [MarbleFailurePictures.environmentVariable: "0"])
        #expect(child.status != 0)
        #expect(child.output.contains("marble mismatch at frame 7"), "\(child.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".svg") } == [])
        #expect(!child.output.contains("picture:"))
    }
    #endif
}

/// What an SVG failure picture shows, read back with Foundation's XMLParser
/// (so the picture must be well-formed XML): each row's caption and events
/// (`marker@time`), the marked first difference, and every text.
struct SVGOutline {
    var captions: [String] = []
    var rows: [[String]] = []
    var difference: String?
    var texts: [String] = []

    init(_ svg: String) throws {
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        guard parser.parse() else {
            throw SVGError(message: "not well-formed: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        guard reader.root == "svg" else { throw SVGError(message: "root element \(reader.root ?? "none")") }
        captions = reader.captions
        rows = reader.rows
        difference = reader.difference
        texts = reader.texts
    }

    struct SVGError: Error { let message: String }

    private final class Reader: NSObject, XMLParserDelegate {
        var root: String?
        var captions: [String] = []
        var rows: [[String]] = []
        var difference: String?
        var texts: [String] = []
        private var text = ""
        private var eventTime: String?
        private var eventKind: String?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = name }
            text = ""
            let classes = (attributes["class"] ?? "").split(separator: " ")
            if name == "g", classes.contains("row") { rows.append([]) }
            if name == "g", classes.contains("event") {
                eventTime = attributes["data-time"]
                eventKind = classes.last.map(String.init)
            }
            if name == "g", classes.contains("difference") { difference = attributes["data-time"] }
            if name == "text", classes.contains("caption") { eventKind = "caption" }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" {
                texts.append(text)
                if eventKind == "caption" {
                    captions.append(text)
                    eventKind = nil
                } else if eventKind == "next", let time = eventTime, !rows.isEmpty {
                    rows[rows.count - 1].append("\(text)@\(time)")
                }
            }
            if name == "g", let kind = eventKind, kind != "next", let time = eventTime, !rows.isEmpty {
                rows[rows.count - 1].append("\(kind)@\(time)")
            }
            if name == "g" {
                eventTime = nil
                eventKind = nil
            }
            text = ""
        }
    }
}
