import Foundation
import Testing
import Tick
import TickTesting
import XCTest

@Suite(.checksResourceLeaks) struct RecordedAssertionsTests {
    @Test func differenceListsEachDifferingIndex() {
        let actual: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 3), .completed(240), .next(250, 9)]
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(230)]
        let difference = recordedEventsDifference(actual, expected)
        #expect(difference == """
            recorded events differ (actual: 4 events, expected: 3):
              [1] actual:   next(3) @ 220
                  expected: next(2) @ 220
              [2] actual:   completed @ 240
                  expected: completed @ 230
              [3] unexpected: next(9) @ 250
            """)
        #expect(recordedEventsDifference(expected, expected) == nil)
        let shorter = recordedEventsDifference([.next(210, 1)], expected)
        #expect(shorter?.contains("[1] missing:  next(2) @ 220") == true)
        #expect(shorter?.contains("[2] missing:  completed @ 230") == true)
    }

    @Test func expectRecordedEventsPassesOrRecordsTheDifference() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { xs.map { $0 + 1 } }
        #expect(expectRecordedEvents(res.events, [.next(210, 2), .completed(230)]))
        withKnownIssue {
            expectRecordedEvents(res.events, [.next(210, 2), .completed(231)])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("[1] actual:   completed @ 230\n      expected: completed @ 231") }
        }
    }

    @Test func expectRecordedElementsIgnoresTimesButNotTerminalEvents() {
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .next(300, 2)]
        #expect(expectRecordedElements(events, [1, 2]))
        withKnownIssue {
            expectRecordedElements(events, [1, 3])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("[1] actual: 2, expected: 3") }
        }
        withKnownIssue {
            expectRecordedElements(events + [.completed(400)], [1, 2])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("terminal event (completed @ 400)") }
        }
        withKnownIssue {
            expectRecordedElements(events, [1])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("[1] actual: 2, expected: none") }
        }
    }
}

/// The XCTest spellings: failures reach XCTest at the caller's line.
final class RecordedAssertionsXCTests: XCTestCase {
    private var capturing = false
    private var captured: [(message: String, line: Int)] = []

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append((description, lineNumber))
    }
    #endif

    func testXCTAssertEqualOnRecordedEventsListsDifferences() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let res = scheduler.start { xs }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        capturing = true
        let line = #line + 1
        XCTAssertEqual(res.events, [.next(210, 5), .completed(230)])
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        let message = captured.first?.message ?? ""
        XCTAssertTrue(message.contains("[0] actual:   next(1) @ 210\n      expected: next(5) @ 210"), message)
        XCTAssertFalse(message.contains("[1]"), message)
    }

    func testXCTAssertRecordedElements() {
        let events: [Recorded<Event<String>>] = [.next(210, "a"), .next(220, "b")]
        XCTAssertRecordedElements(events, ["a", "b"])
        capturing = true
        let line = #line + 1
        XCTAssertRecordedElements(events, ["a"])
        XCTAssertRecordedElements(events + [.error(230, TestError(1))], ["a", "b"])
        capturing = false
        XCTAssertEqual(captured.map(\.line), [line, line + 1])
        XCTAssertTrue(captured.first?.message.contains("[1] actual: b, expected: none") ?? false)
        XCTAssertTrue(captured.last?.message.contains("terminal event (error(TestError(1)) @ 230)") ?? false)
    }
}
