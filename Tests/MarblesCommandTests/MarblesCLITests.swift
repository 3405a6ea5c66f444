import Foundation
import Testing
import MarblesCommand
import TickTesting

#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts elements by their `class` attribute while checking the XML is well formed.
private final class SVGInspector: NSObject, XMLParserDelegate {
    var classes: [String] = []
    var elements = 0
    var root: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements += 1
        if root == nil { root = elementName }
        if let value = attributes["class"] { classes.append(value) }
    }

    static func inspect(_ svg: String) -> SVGInspector? {
        let parser = XMLParser(data: Data(svg.utf8))
        let inspector = SVGInspector()
        parser.delegate = inspector
        return parser.parse() ? inspector : nil
    }
}

@Suite struct MarblesCLITests {
    @Test func explainPrintsEachEventWithItsTime() {
        let result = MarblesCLI.run(["explain", "--a--(bc)--|"])
        #expect(result.exitCode == 0)
        #expect(result.standardError == "")
        #expect(
            result.standardOutput == """
                frame 2 (2ms): next(a)
                frame 5 (5ms): next(b)
                frame 5 (5ms): next(c)
                frame 11 (11ms): completed

                """)
    }

    @Test func explainHotAndFrameOptions() {
        let hot = MarblesCLI.run(["explain", "-a-^-b--|", "--hot"])
        #expect(hot.standardOutput == "frame -2 (-2ms): next(a)\nframe 2 (2ms): next(b)\nframe 5 (5ms): completed\n")
        let framed = MarblesCLI.run(["explain", "--frame", "10ms", "--a 5ms b|"])
        #expect(framed.standardOutput == "frame 2 (20ms): next(a)\nframe 3+5ms (35ms): next(b)\nframe 4+5ms (45ms): completed\n")
        let quiet = MarblesCLI.run(["explain", "---"])
        #expect(quiet.standardOutput == "(no events)\n")
        // After "--" an option-like argument is a diagram.
        let literal = MarblesCLI.run(["explain", "--", "--hot"])
        #expect(literal.standardOutput.hasPrefix("frame 2 (2ms): next(h)\n"))
    }

    @Test func badDiagramPrintsTheCaretMessageOnStandardErrorWithExitCode2() throws {
        let result = MarblesCLI.run(["explain", "--((a))"])
        #expect(result.exitCode == 2)
        #expect(result.standardOutput == "")
        let error = try #require(
            { () throws(MarbleError) -> MarbleError? in
                do throws(MarbleError) {
                    _ = try Marbles.parse("--((a))") as [Recorded<Event<String>>]
                    return nil
                } catch { return error }
            }())
        #expect(result.standardError == error.description + "\n")
        for arguments in [["render", "a)"], ["diff", "a|", "(b"], ["explain", "^a"]] {
            let bad = MarblesCLI.run(arguments)
            #expect(bad.exitCode == 2)
            #expect(bad.standardOutput == "")
            #expect(bad.standardError.hasPrefix("marble diagram error at column"))
        }
    }

    @Test func usageErrorsExitWith2() {
        for arguments in [["nope"], ["explain"], ["explain", "a", "b"], ["diff", "a"], ["render"], ["explain", "--frame"],
                          ["explain", "--frame", "fast", "a"], ["explain", "--frame", "0ms", "a"], ["render", "a", "--output"]] {
            let result = MarblesCLI.run(arguments)
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.standardOutput == "", "\(arguments)")
            #expect(!result.standardError.isEmpty, "\(arguments)")
        }
    }

    @Test func helpForEachCommand() {
        for command in ["explain", "render", "diff"] {
            let result = MarblesCLI.run([command, "--help"])
            #expect(result.exitCode == 0)
            #expect(result.standardOutput.hasPrefix("usage: marbles \(command)"))
            #expect(MarblesCLI.run(["help", command]) == result)
        }
        #expect(MarblesCLI.run(["--help"]).standardOutput == MarblesCLI.usage)
    }

    @Test func noArgumentsPrintsUsageAndADemo() {
        let result = MarblesCLI.run([])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix(MarblesCLI.usage))
        #expect(result.standardOutput.contains("$ marbles explain \"--a--(bc)--|\"\nframe 2 (2ms): next(a)\n"))
        #expect(result.standardOutput.contains("$ marbles explain --hot \"-a-^-b--|\"\nframe -2 (-2ms): next(a)\n"))
    }

    @Test func diffExitsWith1WhenDifferent() {
        let different = MarblesCLI.run(["diff", "--a--b--|", "--a--c--|"])
        #expect(different.exitCode == 1)
        #expect(
            different.standardOutput == """
                expected: --a--b--|
                actual:   --a--c--|
                               ^ first difference at frame 5 (5ms)
                differences:
                  frame 5 (5ms): expected next(b), actual next(c)

                """)
        let same = MarblesCLI.run(["diff", "--a--|", "--a-- |"])
        #expect(same.exitCode == 0)
        #expect(same.standardOutput == "no differences:\n  --a--|\n")
    }

    @Test func renderIsWellFormedSVGWithOneElementPerEvent() throws {
        let result = MarblesCLI.run(["render", "--hot", "-a-^-b--|", "--(bc)-#", "x 100ms y"])
        #expect(result.exitCode == 0)
        let inspector = try #require(SVGInspector.inspect(result.standardOutput))
        #expect(inspector.root == "svg")
        let events = inspector.classes.filter { $0.hasPrefix("event ") }
        // 3 + 3 + 2 events in the three rows.
        #expect(events.count == 8)
        #expect(events.filter { $0 == "event next" }.count == 6)
        #expect(events.filter { $0 == "event completed" }.count == 1)
        #expect(events.filter { $0 == "event error" }.count == 1)
        #expect(inspector.classes.filter { $0 == "row" }.count == 3)
        #expect(inspector.classes.filter { $0 == "subscription" }.count == 1)
        #expect(inspector.classes.filter { $0 == "arrow" }.count == 3)
        // The long quiet stretch in the last row is shortened and marked.
        #expect(inspector.classes.contains("break"))
    }

    @Test func renderEscapesMarkersAndWritesFiles() throws {
        let svg = try Marbles.svg(["<&>\"'|"])
        let inspector = try #require(SVGInspector.inspect(svg))
        #expect(inspector.classes.filter { $0.hasPrefix("event") }.count == 6)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = MarblesCLI.run(["render", "-a-|", "--output", path])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "wrote 1 row to \(path)\n")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == MarblesCLI.run(["render", "-a-|"]).standardOutput)
        #expect(SVGInspector.inspect(written) != nil)
        let unwritable = MarblesCLI.run(["render", "a", "--output", "/nonexistent-dir/x.svg"])
        #expect(unwritable.exitCode == 2)
        #expect(unwritable.standardOutput == "")
    }

    // MARK: Options, input from files and standard input (issue 13; issue 16, items 7 and 11)

    @Test func anOptionLikeExtraArgumentIsAnUnknownOption() {
        let result = MarblesCLI.run(["explain", "-x", "a"])
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("marbles explain: unknown option -x"))
        let long = MarblesCLI.run(["diff", "--frames", "a|", "a|"])
        #expect(long.standardError.hasPrefix("marbles diff: unknown option --frames"))
        // A lone diagram that happens to look like an option is still a diagram.
        #expect(MarblesCLI.run(["explain", "-a"]).standardOutput == "frame 1 (1ms): next(a)\n")
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func diagramsFromStandardInputAndFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fromInput = MarblesCLI.run(["explain", "-"], standardInput: { Array("--a|\n".utf8) })
        #expect(fromInput.standardOutput == "frame 2 (2ms): next(a)\nframe 3 (3ms): completed\n")
        // Larger than one argument may be (128 KiB): 200,001 characters.
        let long = String(repeating: "-", count: 200_000) + "|"
        let file = directory.appendingPathComponent("long.txt")
        try long.write(to: file, atomically: true, encoding: .utf8)
        let fromFile = MarblesCLI.run(["explain", "--file", file.path])
        #expect(fromFile.standardOutput == "frame 200000 (200000ms): completed\n")
        let mixed = MarblesCLI.run(["diff", "-f", file.path, "-"], standardInput: { Array(long.utf8) })
        #expect(mixed.exitCode == 0)
        let missing = MarblesCLI.run(["explain", "--file", directory.appendingPathComponent("nope").path])
        #expect(missing.exitCode == 2)
        #expect(missing.standardError.contains("cannot read"))
    }

    @Test func invalidUTF8IsReportedNotReplaced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes: [UInt8] = [0x2D, 0x61, 0xC3, 0x28, 0x7C]
        let fromInput = MarblesCLI.run(["explain", "-"], standardInput: { bytes })
        #expect(fromInput.exitCode == 2)
        #expect(fromInput.standardOutput == "")
        #expect(fromInput.standardError == "marbles explain: standard input is not valid UTF-8 (byte 3 of 5); a diagram must be UTF-8 text\n")
        let file = directory.appendingPathComponent("bad.txt")
        try Data(bytes).write(to: file)
        #expect(MarblesCLI.run(["render", "--file", file.path]).exitCode == 2)
        let arguments = MarblesCLI.checkEncoding(ofRawArguments: [Array("explain".utf8), bytes])
        #expect(arguments?.exitCode == 2)
        #expect(arguments?.standardError.contains("argument 2 is not valid UTF-8 (byte 3 of 5)") == true)
        #expect(MarblesCLI.checkEncoding(ofRawArguments: [Array("explain".utf8), Array("🙂|".utf8)]) == nil)
    }

    // MARK: render -o never clobbers what is not a regular file (issue 16, item 6)

    @Test func renderReplacesARegularFileKeepingItsPermissions() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.svg").path
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let result = MarblesCLI.run(["render", "-a|", "-o", path])
        #expect(result.exitCode == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == MarblesCLI.run(["render", "-a|"]).standardOutput)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.svg"])
    }

    @Test func renderToDashWritesStandardOutput() {
        let result = MarblesCLI.run(["render", "-a|", "-o", "-"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == MarblesCLI.run(["render", "-a|"]).standardOutput)
    }

    @Test func renderRefusesSymlinksFIFOsDirectoriesAndReadOnlyFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.txt").path
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("link.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let fifo = directory.appendingPathComponent("fifo.svg").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let readOnly = directory.appendingPathComponent("readonly.svg").path
        try "keep".write(toFile: readOnly, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
        let cases: [(path: String, reason: String)] = [
            (link, "it is a symbolic link"), (fifo, "it is a FIFO"), (directory.path, "it is a directory"),
            (readOnly, "it is read-only"),
        ]
        for (path, reason) in cases {
            let result = MarblesCLI.run(["render", "-a|", "--output", path])
            #expect(result.exitCode == 2, "\(path)")
            #expect(result.standardOutput == "")
            #expect(result.standardError.hasPrefix("marbles render: refusing to write \(path): \(reason)"), "\(result.standardError)")
        }
        // Nothing was replaced.
        let linkType = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
        #expect(linkType == .typeSymbolicLink)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        #expect(try String(contentsOfFile: readOnly, encoding: .utf8) == "keep")
        let readOnlyMode = try FileManager.default.attributesOfItem(atPath: readOnly)[.posixPermissions] as? Int
        #expect(readOnlyMode == 0o444)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    #if os(Linux)
    @Test(.enabled(if: getuid() == 0, "creating a device node needs root"))
    func renderRefusesADeviceNodeInATemporaryFolder() throws {
        // A character device (the null device's numbers, 1:3) made in a
        // temporary folder: refused by lstat, never opened.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = directory.appendingPathComponent("device.svg").path
        // A container without the mknod capability cannot make one: nothing to test there.
        guard mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 else { return }
        let result = MarblesCLI.run(["render", "-a|", "-o", device])
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("marbles render: refusing to write \(device): it is a device"))
        var info = stat()
        #expect(lstat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }
    #endif
}
