import Tick

// RxTest-style assertions on recorded events, for XCTest and Swift Testing.
// Failures go through `TestFailureReporter`, so each works under either
// framework; the XCTest names exist for code ported from RxTest.

/// A per-index list of the differences between two arrays of recorded
/// events, or `nil` if they are equal.
///
/// Each differing index gets one line: both sides when both have an event
/// there, `missing` when `actual` is shorter, `unexpected` when it is longer.
///
///     recorded events differ (actual: 2 events, expected: 3):
///       [1] actual:   next(3) @ 220
///           expected: next(2) @ 220
///       [2] missing:  completed @ 230
public func recordedEventsDifference<Element: Equatable>(
    _ actual: [Recorded<Event<Element>>], _ expected: [Recorded<Event<Element>>]
) -> String? {
    guard actual != expected else { return nil }
    var lines = ["recorded events differ (actual: \(count(actual.count)), expected: \(expected.count)):"]
    for index in 0..<max(actual.count, expected.count) {
        switch (index < actual.count ? actual[index] : nil, index < expected.count ? expected[index] : nil) {
        case (let got?, let wanted?):
            guard got != wanted else { continue }
            lines.append("  [\(index)] actual:   \(got)")
            lines.append("      expected: \(wanted)")
        case (nil, let wanted?):
            lines.append("  [\(index)] missing:  \(wanted)")
        case (let got?, nil):
            lines.append("  [\(index)] unexpected: \(got)")
        case (nil, nil):
            break
        }
    }
    return lines.joined(separator: "\n")
}

private func count(_ n: Int) -> String { n == 1 ? "1 event" : "\(n) events" }

/// Checks that `actual` equals `expected`, event by event with their times;
/// on a mismatch records one failure listing the differences per index (see
/// ``recordedEventsDifference(_:_:)``). Returns whether they were equal.
@discardableResult
public func expectRecordedEvents<Element: Equatable>(
    _ actual: [Recorded<Event<Element>>], _ expected: [Recorded<Event<Element>>],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    guard let difference = recordedEventsDifference(actual, expected) else { return true }
    TestFailureReporter.fail(
        difference, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return false
}

/// Checks that `stream` holds exactly the `elements`, in order, as `next`
/// events, and no terminal event; times are not compared (RxTest's
/// `XCTAssertRecordedElements` rule). Returns whether it did.
@discardableResult
public func expectRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        TestFailureReporter.fail(
            "recorded events contain a terminal event (\(stop)); expected only the elements \(elements)", at: site)
        return false
    }
    let recorded = stream.compactMap(\.value.element)
    guard recorded != elements else { return true }
    var lines = ["recorded elements differ (actual: \(recorded.count), expected: \(elements.count)):"]
    for index in 0..<max(recorded.count, elements.count) {
        let got = index < recorded.count ? "\(recorded[index])" : "missing"
        let wanted = index < elements.count ? "\(elements[index])" : "none"
        if index < recorded.count, index < elements.count, recorded[index] == elements[index] { continue }
        lines.append("  [\(index)] actual: \(got), expected: \(wanted)")
    }
    TestFailureReporter.fail(lines.joined(separator: "\n"), at: site)
    return false
}

/// XCTest spelling of ``expectRecordedElements(_:_:fileID:filePath:line:column:)``,
/// as in RxTest: `stream` must hold exactly `elements` as `next` events and no
/// terminal event; times are ignored.
public func XCTAssertRecordedElements<Element: Equatable>(
    _ stream: [Recorded<Event<Element>>], _ elements: [Element],
    file: StaticString = #filePath, line: UInt = #line
) {
    expectRecordedElements(stream, elements, fileID: "\(file)", filePath: file, line: line)
}

/// XCTest's `XCTAssertEqual` for recorded events: on a mismatch the failure
/// lists the differences per index (see ``recordedEventsDifference(_:_:)``)
/// instead of printing both arrays.
public func XCTAssertEqual<Element: Equatable>(
    _ actual: [Recorded<Event<Element>>], _ expected: [Recorded<Event<Element>>],
    file: StaticString = #filePath, line: UInt = #line
) {
    expectRecordedEvents(actual, expected, fileID: "\(file)", filePath: file, line: line)
}
