import Foundation
import Testing
import Tick
import XCTest

/// Failure pictures: when a marble expectation fails, its expected and
/// actual timelines are drawn as one SVG (``Marbles/svg(_:_:frame:)``'s
/// renderer: both diagrams on one time scale, the first difference marked
/// by a red dashed line) and attached to the failing test.
///
/// - **Swift Testing**: an `Attachment` of the test, named
///   `marble-mismatch-<File>-<line>.svg`. `swift test --attachments-path
///   <folder>` writes it to that folder (Swift Testing discards attachments
///   otherwise); the failure text names the file and, when the test process
///   was given the folder, the folder.
/// - **XCTest on Apple platforms**: an `XCTAttachment` of the running test
///   case, kept always (Xcode shows it in the test report). swift-corelibs-
///   xctest (Linux, Windows) has no attachments: there nothing is attached
///   and the failure text is the diff alone.
/// - Not attached when failures go to a handler
///   (``TestFailureReporter/withHandler(_:operation:)``), outside any test,
///   or when switched off.
///
/// **Off switch**: set the environment variable `TICK_FAILURE_PICTURES` to
/// `0` (or `off`, `false`, `no`) for the test process, e.g.
/// `TICK_FAILURE_PICTURES=0 swift test`.
public enum MarbleFailurePictures {
    // `@_optimize(none)`, as the SVG renderer (MarbleSVG.swift): this runs
    // once per failure.

    /// The environment variable that switches failure pictures off.
    public static let environmentVariable = "TICK_FAILURE_PICTURES"

    /// Whether failing marble expectations attach a picture: true unless
    /// ``environmentVariable`` is `0`, `off`, `false` or `no`.
    @_optimize(none)  // cold: a failure (Docs/Performance.md, "Build time")
    public static var isEnabled: Bool {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable]?.lowercased() else { return true }
        return !["0", "off", "false", "no"].contains(value)
    }

    /// The picture of a failed comparison: the expected timeline above the
    /// actual one, the first difference marked, the legend under the axis.
    /// nil when `diff` has no picture (the timelines are equal, or it is a
    /// subscription diff) or a diagram cannot be drawn.
    @_optimize(none)
    static func svg(for diff: MarbleDiff) -> String? {
        guard let picture = diff.picture else { return nil }
        let frame = picture.frame
        let frameAttos = frame.totalAttoseconds
        let rows: [Marbles.SVGRow]
        do {
            rows = [
                try Marbles.SVGRow(
                    diagram: picture.expected, caption: "expected: \(picture.expected)", .hot, frame: frame),
                try Marbles.SVGRow(diagram: picture.actual, caption: "actual:   \(picture.actual)", .hot, frame: frame),
            ]
        } catch {
            return nil
        }
        var notes: [String] = []
        if let legend = picture.legend { notes.append("values: \(legend)") }
        let mark = Marbles.SVGMark(
            time: picture.firstDifference,
            label: "first difference at \(Marbles.describe(picture.firstDifference, frame: frameAttos))")
        return Marbles.render(rows, frameAttos: frameAttos, mark: mark, notes: notes)
    }

    /// The file name of the picture of a failure at `site`.
    @_optimize(none)
    static func fileName(for site: CallSite) -> String {
        let file = site.fileID.split(separator: "/").last.map(String.init) ?? site.fileID
        let safe = String(file.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" ? $0 : "_" })
        return "marble-mismatch-\(safe)-\(site.line).svg"
    }

    /// Draws and attaches the picture of a failed marble expectation at
    /// `site`, and returns the line the failure text gets about it (nil when
    /// nothing was attached).
    @_optimize(none)
    static func attach(_ diff: MarbleDiff, site: CallSite) -> String? {
        guard TestFailureReporter.handler == nil, isEnabled else { return nil }
        let inSwiftTesting = Test.current != nil
        #if canImport(Darwin)
        let testCase = inSwiftTesting ? nil : XCTestTracker.shared.current
        guard inSwiftTesting || testCase != nil else { return nil }
        #else
        guard inSwiftTesting else { return nil }
        #endif
        guard let svg = diff.svg else { return nil }
        let name = fileName(for: site)
        if inSwiftTesting {
            Attachment.record(
                svg, named: name,
                sourceLocation: SourceLocation(
                    fileID: site.fileID, filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column)))
            if let folder = attachmentsFolder {
                return "picture: expected and actual drawn in \(name), attached to this test and written to \(folder)"
            }
            return
                "picture: expected and actual drawn in \(name), attached to this test (run `swift test --attachments-path <folder>` to have it written there; \(environmentVariable)=0 turns pictures off)"
        }
        #if canImport(Darwin)
        let attachment = XCTAttachment(data: Data(svg.utf8), uniformTypeIdentifier: "public.svg-image")
        attachment.name = name
        attachment.lifetime = .keepAlways
        testCase?.add(attachment)
        return "picture: expected and actual drawn in \(name), attached to this test"
        #else
        return nil
        #endif
    }

    /// The folder the test process was told to write attachments to, read
    /// from its arguments (`swift test --attachments-path X` passes it on).
    @_optimize(none)  // cold: a failure (Docs/Performance.md, "Build time")
    static var attachmentsFolder: String? {
        let arguments = CommandLine.arguments
        for (index, argument) in arguments.enumerated() {
            for option in ["--attachments-path", "--experimental-attachments-path"] {
                if argument == option, index + 1 < arguments.count { return arguments[index + 1] }
                if argument.hasPrefix(option + "=") { return String(argument.dropFirst(option.count + 1)) }
            }
        }
        return nil
    }
}
