import Tick

// RxTest's assertions on plain (unrecorded) events: arrays of `Event`, and of
// the traits' `SingleEvent`, `MaybeEvent` and `CompletableEvent`. Failures go
// through `TestFailureReporter` (Swift Testing issue or `XCTFail`, at the
// caller's line) and list the differences per index, like
// `recordedEventsDifference(_:_:)`.

/// A per-index list of the differences between two arrays of events, or
/// `nil` if they are equal under `equal`.
func eventsDifference<Value>(
    _ actual: [Value], _ expected: [Value], equal: (Value, Value) -> Bool
) -> String? {
    if actual.count == expected.count, zip(actual, expected).allSatisfy(equal) { return nil }
    var lines = ["events differ (actual: \(actual.count), expected: \(expected.count)):"]
    for index in 0..<max(actual.count, expected.count) {
        switch (index < actual.count ? actual[index] : nil, index < expected.count ? expected[index] : nil) {
        case (let got?, let wanted?):
            guard !equal(got, wanted) else { continue }
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

/// Whether two single events are equal: equal elements, or errors equal
/// under ``errorsAreEqual(_:_:)``. (`SingleEvent` is Swift's `Result` with
/// `any Error`, which cannot be `Equatable`.)
public func singleEventsAreEqual<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let l), .success(let r)): l == r
    case (.failure(let l), .failure(let r)): errorsAreEqual(l, r)
    default: false
    }
}

@discardableResult
private func expectEqualEvents<Value>(
    _ actual: [Value], _ expected: [Value], equal: (Value, Value) -> Bool, site: CallSite
) -> Bool {
    guard let difference = eventsDifference(actual, expected, equal: equal) else { return true }
    TestFailureReporter.fail(difference, at: site)
    return false
}

/// Checks that `actual` equals `expected`, event by event; on a mismatch
/// records one failure listing the differences per index. Returns whether
/// they were equal.
@discardableResult
public func expectEvents<Element: Equatable>(
    _ actual: [Event<Element>], _ expected: [Event<Element>],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    expectEqualEvents(actual, expected, equal: { (lhs: Event<Element>, rhs: Event<Element>) in lhs == rhs },
                      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Checks that two arrays of single events are equal (see
/// ``singleEventsAreEqual(_:_:)``); on a mismatch records one failure
/// listing the differences per index.
@discardableResult
public func expectEvents<Element: Equatable>(
    _ actual: [SingleEvent<Element>], _ expected: [SingleEvent<Element>],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    expectEqualEvents(actual, expected, equal: singleEventsAreEqual,
                      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Checks that two arrays of maybe events are equal; on a mismatch records
/// one failure listing the differences per index.
@discardableResult
public func expectEvents<Element: Equatable>(
    _ actual: [MaybeEvent<Element>], _ expected: [MaybeEvent<Element>],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    expectEqualEvents(actual, expected, equal: { (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) in lhs == rhs },
                      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Checks that two arrays of completable events are equal; on a mismatch
/// records one failure listing the differences per index.
@discardableResult
public func expectEvents(
    _ actual: [CompletableEvent], _ expected: [CompletableEvent],
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    expectEqualEvents(actual, expected, equal: ==,
                      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// XCTest's `XCTAssertEqual` for events, as in RxTest: on a mismatch the
/// failure lists the differences per index.
public func XCTAssertEqual<Element: Equatable>(
    _ actual: [Event<Element>], _ expected: [Event<Element>], file: StaticString = #filePath, line: UInt = #line
) {
    expectEvents(actual, expected, fileID: "\(file)", filePath: file, line: line)
}

/// XCTest's `XCTAssertEqual` for single events, as in RxTest.
public func XCTAssertEqual<Element: Equatable>(
    _ actual: [SingleEvent<Element>], _ expected: [SingleEvent<Element>],
    file: StaticString = #filePath, line: UInt = #line
) {
    expectEvents(actual, expected, fileID: "\(file)", filePath: file, line: line)
}

/// XCTest's `XCTAssertEqual` for maybe events, as in RxTest.
public func XCTAssertEqual<Element: Equatable>(
    _ actual: [MaybeEvent<Element>], _ expected: [MaybeEvent<Element>],
    file: StaticString = #filePath, line: UInt = #line
) {
    expectEvents(actual, expected, fileID: "\(file)", filePath: file, line: line)
}

/// XCTest's `XCTAssertEqual` for completable events, as in RxTest.
public func XCTAssertEqual(
    _ actual: [CompletableEvent], _ expected: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line
) {
    expectEvents(actual, expected, fileID: "\(file)", filePath: file, line: line)
}
