import Testing
import Tick
import TickTesting

@Suite struct MarblePrinterTests {
    @Test func printsFramesGroupsAndTerminal() {
        let events: [Recorded<Event<String>>] = [.next(2, "a"), .next(5, "b"), .next(5, "c"), .completed(11)]
        let printed = Marbles.print(events)
        #expect(printed.diagram == "--a--(bc)--|")
        #expect(printed.isExact)
        #expect(printed.legend == nil)
        #expect(printed.values.isEmpty)
        #expect(Marbles.print([Recorded<Event<String>>]()).diagram == "")
    }

    @Test func quietStretchBecomesDurationTokenPastTwentyFrames() {
        // 20 quiet frames (b at 21) are dashes; 21 (b at 22) are a token; 19 are dashes.
        let nineteen = Marbles.print([.next(0, "a"), .next(20, "b")] as [Recorded<Event<String>>])
        #expect(nineteen.diagram == "a" + String(repeating: "-", count: 19) + "b")
        let twenty = Marbles.print([.next(0, "a"), .next(21, "b")] as [Recorded<Event<String>>])
        #expect(twenty.diagram == "a" + String(repeating: "-", count: 20) + "b")
        let twentyOne = Marbles.print([.next(0, "a"), .next(22, "b")] as [Recorded<Event<String>>])
        #expect(twentyOne.diagram == "a 21ms b")
        let long = Marbles.print([.next(0, "a"), .next(60_001, "b"), .completed(61_002)] as [Recorded<Event<String>>])
        #expect(long.diagram == "a 1m b 1s |")
        #expect(long.isExact)
        let start = Marbles.print([.next(100, "a")] as [Recorded<Event<String>>])
        #expect(start.diagram == "100ms a")
    }

    @Test func subFrameTimesUseExactDurations() {
        let events: [Recorded<Event<String>>] = [
            .next(TestTime(frames: 10, remainder: .microseconds(200)), "a"),
            .completed(TestTime(frames: 12, remainder: .microseconds(200))),
        ]
        let printed = Marbles.print(events)
        #expect(printed.diagram == "10.2ms a-|")
        #expect(printed.isExact)
    }

    @Test func negativeTimesMakeAHotDiagram() {
        let events: [Recorded<Event<String>>] = [.next(-2, "a"), .next(2, "b"), .completed(5)]
        let printed = Marbles.print(events)
        #expect(printed.diagram == "a-^-b--|")
        #expect(printed.temperature == .hot)
        let atZero = Marbles.print([.next(-1, "a"), .next(0, "b")] as [Recorded<Event<String>>])
        #expect(atZero.diagram == "a(^b)")
        #expect(atZero.isExact)
    }

    @Test func legendWhenElementsAreNotSingleCharacters() {
        let numbers = Marbles.print([.next(1, 10), .next(3, 20), .next(4, 10), .completed(5)] as [Recorded<Event<Int>>])
        #expect(numbers.diagram == "-a-ba|")
        #expect(numbers.legend == "a = 10, b = 20")
        #expect(numbers.values == ["a": 10, "b": 20])
        #expect(numbers.description == "-a-ba|\nvalues: a = 10, b = 20")
        let words = Marbles.print([.next(0, "hello")] as [Recorded<Event<String>>])
        #expect(words.diagram == "a")
        #expect(words.legend == "a = \"hello\"")
        // Single-character Ints need a values map but no legend.
        let digits = Marbles.print([.next(0, 1), .next(1, 2)] as [Recorded<Event<Int>>])
        #expect(digits.diagram == "12")
        #expect(digits.legend == nil)
        #expect(digits.values == ["1": 1, "2": 2])
        // Markers that are special characters get a legend.
        let special = Marbles.print([.next(0, "|")] as [Recorded<Event<String>>])
        #expect(special.diagram == "a")
        #expect(special.legend == "a = \"|\"")
    }

    @Test func directMarkersThatWouldReadAsADurationFallBackToLetters() {
        // "5" then "m" after a duration token would read as the duration "5m".
        let events: [Recorded<Event<String>>] = [.next(0, "x"), .next(100, "5"), .next(101, "m")]
        let printed = Marbles.print(events)
        #expect(printed.isExact)
        #expect(printed.diagram == "a 99ms bc")
        #expect(printed.legend == "a = \"x\", b = \"5\", c = \"m\"")
    }

    @Test func unwritableTimelinesAreMarkedInexact() {
        // (ab) takes four frames, so nothing can be written at frame 2.
        let crowded = Marbles.print([.next(0, "a"), .next(0, "b"), .next(2, "c")] as [Recorded<Event<String>>])
        #expect(!crowded.isExact)
        let afterEnd = Marbles.print([.completed(1), .next(3, "a")] as [Recorded<Event<String>>])
        #expect(afterEnd.diagram == "-|-a")
        #expect(!afterEnd.isExact)
    }

    @Test func printsSubscriptions() throws {
        #expect(Marbles.print(Subscription(0, 4)) == "^---!")
        #expect(Marbles.print(Subscription(2, 2)) == "--(^!)")
        #expect(Marbles.print(Subscription(3)) == "---^")
        #expect(Marbles.print(Subscription(0, 100)) == "^ 99ms !")
        for subscription in [Subscription(0, 4), Subscription(2, 2), Subscription(3), Subscription(0, 100), Subscription(50, 51)] {
            #expect(try Marbles.parseSubscription(Marbles.print(subscription)) == subscription)
        }
    }

    // MARK: Diff

    @Test func diffAlignsDiagramsAndListsDifferences() throws {
        let diff = try Marbles.diff(expected: "--a--b--|", actual: "--a--c--|")
        #expect(!diff.isEqual)
        #expect(
            diff.description == """
                expected: --a--b--|
                actual:   --a--c--|
                               ^ first difference at frame 5 (5ms)
                differences:
                  frame 5 (5ms): expected next(b), actual next(c)
                """)
    }

    @Test func diffOfMissingAndExtraEvents() throws {
        let diff = try Marbles.diff(expected: "--a--|", actual: "--a-b")
        #expect(
            diff.description == """
                expected: --a--|
                actual:   --a-b
                              ^ first difference at frame 4 (4ms)
                differences:
                  frame 4 (4ms): expected nothing, actual next(b)
                  frame 5 (5ms): expected completed, actual nothing
                """)
    }

    @Test func diffSaysWhenDiagramsLookTheSameButValuesDiffer() {
        let expected: [Recorded<Event<Int>>] = [.next(1, 1), .error(3, TestError(1))]
        let actual: [Recorded<Event<Int>>] = [.next(1, 1), .error(3, TestError(2))]
        let diff = Marbles.diff(expected: expected, actual: actual)
        #expect(
            diff.description == """
                expected: -1-#
                actual:   -1-#
                             ^ first difference at frame 3 (3ms)
                the diagrams look the same, but these events differ:
                  frame 3 (3ms): expected error(TestError(1)), actual error(TestError(2))
                """)
    }

    @Test func diffSharesOneLegend() {
        let expected: [Recorded<Event<Int>>] = [.next(1, 10), .completed(3)]
        let actual: [Recorded<Event<Int>>] = [.next(1, 20), .completed(3)]
        let diff = Marbles.diff(expected: expected, actual: actual)
        #expect(
            diff.description == """
                expected: -a-|
                actual:   -b-|
                           ^ first difference at frame 1 (1ms)
                values: a = 10, b = 20
                differences:
                  frame 1 (1ms): expected next(10), actual next(20)
                """)
    }

    @Test func equalTimelinesHaveNoDifferences() throws {
        let diff = try Marbles.diff(expected: "--a--|", actual: "  --a  --| ")
        #expect(diff.isEqual)
        #expect(diff.description == "no differences:\n  --a--|")
    }

    @Test func subscriptionDiff() {
        let same = Marbles.diff(
            expectedSubscriptions: [Subscription(0, 4), Subscription(2)],
            actualSubscriptions: [Subscription(2), Subscription(0, 4)])
        #expect(same.isEqual)
        let different = Marbles.diff(expectedSubscriptions: [Subscription(0, 4)], actualSubscriptions: [Subscription(0, 6)])
        #expect(!different.isEqual)
        #expect(
            different.description == """
                expected subscriptions:
                  ^---!   (0 : 4)
                actual subscriptions:
                  ^-----!   (0 : 6)
                """)
    }
}
