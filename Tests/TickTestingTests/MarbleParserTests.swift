import Testing
import Tick
import TickTesting

private typealias Events = [Recorded<Event<String>>]

/// `TestTime` of `frames` whole frames plus `micro` microseconds (frame = 1 ms).
private func at(_ frames: Int, micro: Int64 = 0) -> TestTime {
    TestTime(frames: frames, remainder: .microseconds(micro))
}

/// An error's kind and position, comparable in one `#expect`.
private struct At: Equatable {
    var kind: MarbleError.Kind
    var position: Int
    init(_ error: MarbleError) { (kind, position) = (error.kind, error.position) }
    init(_ kind: MarbleError.Kind, _ position: Int) { (self.kind, self.position) = (kind, position) }
}

@Suite(.checksResourceLeaks) struct MarbleParserTests {
    // MARK: The spec's examples

    @Test func framesValuesAndCompletion() throws {
        let events: Events = try Marbles.parse("--a--b--|")
        #expect(events == [.next(2, "a"), .next(5, "b"), .completed(8)])
    }

    @Test func requiredExplainExample() throws {
        let events: Events = try Marbles.parse("--a--(bc)--|")
        #expect(events == [.next(2, "a"), .next(5, "b"), .next(5, "c"), .completed(11)])
    }

    @Test func groupTakesItsTextWidth() throws {
        // (ab) takes 4 frames, so c is at frame 5.
        let events: Events = try Marbles.parse("(ab)-c|")
        #expect(events == [.next(0, "a"), .next(0, "b"), .next(5, "c"), .completed(6)])
        // Dashes inside a group take frames of the group's width but do not move its events.
        let dashed: Events = try Marbles.parse("(a-b)c")
        #expect(dashed == [.next(0, "a"), .next(0, "b"), .next(5, "c")])
        // Whitespace takes no time anywhere, not even inside a group.
        let spaced: Events = try Marbles.parse("(a b)c")
        #expect(spaced == [.next(0, "a"), .next(0, "b"), .next(4, "c")])
    }

    @Test func durationsAreExactDecimals() throws {
        let events: Events = try Marbles.parse("10.2ms a 1.2s b 1m c|")
        #expect(
            events == [
                .next(at(10, micro: 200), "a"), .next(at(1211, micro: 200), "b"), .next(at(61212, micro: 200), "c"),
                .completed(at(61213, micro: 200)),
            ])
        #expect(events[0].time.remainder == .microseconds(200))
    }

    @Test func somethingTenMillisecondsAfterA() throws {
        // Every character takes a frame: b is 10 ms after a when written "a 9ms b".
        let events: Events = try Marbles.parse("a 9ms b")
        #expect(events == [.next(0, "a"), .next(10, "b")])
    }

    @Test func durationOnlyAfterWhitespaceAndBeforeWhitespaceOrEnd() throws {
        let six: Events = try Marbles.parse("a12msb")
        #expect(six.map(\.value) == ["a", "1", "2", "m", "s", "b"].map { .next($0) })
        // Not followed by whitespace: ordinary markers.
        let glued: Events = try Marbles.parse("5ms|")
        #expect(glued == [.next(0, "5"), .next(1, "m"), .next(2, "s"), .completed(3)])
        // At the end: a duration.
        let trailing: Events = try Marbles.parse("a 5ms")
        #expect(trailing == [.next(0, "a")])
        let afterTab: Events = try Marbles.parse("a\t2s\tb")
        #expect(afterTab == [.next(0, "a"), .next(2001, "b")])
        // Digits alone are values.
        let digits: Events = try Marbles.parse("1 2")
        #expect(digits == [.next(0, "1"), .next(1, "2")])
    }

    @Test func hotDiagramHasNegativeTimesBeforeCaret() throws {
        let events: Events = try Marbles.parse("-a-^-b--|", .hot)
        #expect(events == [.next(-2, "a"), .next(2, "b"), .completed(5)])
        // Without ^ a hot diagram starts at its first character.
        let plain: Events = try Marbles.parse("-a|", .hot)
        #expect(plain == [.next(1, "a"), .completed(2)])
        // ^ in a group: the group's events are at frame 0.
        let grouped: Events = try Marbles.parse("a-(^b)c", .hot)
        #expect(grouped == [.next(-2, "a"), .next(0, "b"), .next(4, "c")])
    }

    @Test func negativeTimesWithRemainderFloorToFrames() throws {
        let events: Events = try Marbles.parse("a 0.5ms ^", .hot)
        // a is 1.5 ms before the ^: frame -2 plus 0.5 ms.
        #expect(events == [.next(at(-2, micro: 500), "a")])
    }

    @Test func whitespaceIsIgnored() throws {
        let events: Events = try Marbles.parse("  --a   --b |  ")
        #expect(events == [.next(2, "a"), .next(5, "b"), .completed(6)])
    }

    @Test func valuesMapAndErrorValue() throws {
        let events: [Recorded<Event<Int>>] = try Marbles.parse(
            "-a-b-#", values: ["a": 1, "b": 2], error: TestError(7))
        #expect(events == [.next(1, 1), .next(3, 2), .error(5, TestError(7))])
        let defaultError: [Recorded<Event<Int>>] = try Marbles.parse("#")
        #expect(defaultError == [.error(0, TestError(0))])
    }

    @Test func characterElementsUseMarkers() throws {
        let events: [Recorded<Event<Character>>] = try Marbles.parse("a🙂|")
        #expect(events == [.next(0, "a"), .next(1, "🙂"), .completed(2)])
    }

    @Test func unicodeMarkersAreSingleCharacters() throws {
        // An emoji with a skin tone and a flag are each one Character, so one frame.
        let events: Events = try Marbles.parse("👍🏽-🇫🇷-é|")
        #expect(events == [.next(0, "👍🏽"), .next(2, "🇫🇷"), .next(4, "é"), .completed(5)])
        let mapped: [Recorded<Event<Int>>] = try Marbles.parse("-🙂-", values: ["🙂": 42])
        #expect(mapped == [.next(1, 42)])
    }

    @Test func frameDurationOption() throws {
        let events: Events = try Marbles.parse("--a 5ms b|", frame: .milliseconds(10))
        // a at frame 2 (20 ms); b at 20 + 10 + 5 = 35 ms = frame 3 + 5 ms.
        #expect(events == [.next(2, "a"), .next(TestTime(frames: 3, remainder: .milliseconds(5)), "b"),
                           .completed(TestTime(frames: 4, remainder: .milliseconds(5)))])
    }

    // MARK: Subscriptions and time

    @Test func subscriptionDiagrams() throws {
        #expect(try Marbles.parseSubscription("^---!") == Subscription(0, 4))
        #expect(try Marbles.parseSubscription("--^--!") == Subscription(2, 5))
        #expect(try Marbles.parseSubscription("--^") == Subscription(2))
        #expect(try Marbles.parseSubscription("---!") == Subscription(0, 3))
        #expect(try Marbles.parseSubscription("") == Subscription(0))
        #expect(try Marbles.parseSubscription("--(^!)") == Subscription(2, 2))
        #expect(try Marbles.parseSubscription("^ 10ms !") == Subscription(0, 11))
        #expect(try Marbles.parseSubscription("  ^  -  !") == Subscription(0, 2))
    }

    @Test func timeOfDiagram() throws {
        #expect(try Marbles.time("---|") == .milliseconds(3))
        #expect(try Marbles.time("12ms ---|") == .milliseconds(15))
        #expect(try Marbles.time("--|", frame: .milliseconds(10)) == .milliseconds(20))
        #expect(try Marbles.time("1.5ms |---") == .microseconds(1500))
    }

    // MARK: Every error, with its position

    private func caught(
        _ body: () throws(MarbleError) -> Void
    ) -> MarbleError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    private func cold(_ diagram: String) -> MarbleError? {
        caught { () throws(MarbleError) in _ = try Marbles.parse(diagram) as Events }
    }

    private func hot(_ diagram: String) -> MarbleError? {
        caught { () throws(MarbleError) in _ = try Marbles.parse(diagram, .hot) as Events }
    }

    private func subscription(_ diagram: String) -> MarbleError? {
        caught { () throws(MarbleError) in _ = try Marbles.parseSubscription(diagram) }
    }

    @Test func groupErrors() {
        #expect(cold("((a))").map(At.init) == At(.nestedGroup, 1))
        #expect(cold("a)").map(At.init) == At(.unopenedGroup, 1))
        #expect(cold("--(a").map(At.init) == At(.unclosedGroup, 2))
        #expect(cold("(a)(b").map(At.init) == At(.unclosedGroup, 3))
        #expect(cold("( 1ms a)").map(At.init) == At(.durationInGroup, 2))
    }

    @Test func subscriptionPointErrors() {
        #expect(cold("--^--").map(At.init) == At(.subscriptionPointInColdDiagram, 2))
        #expect(hot("-^-^").map(At.init) == At(.duplicateSubscriptionPoint, 3))
        #expect(cold("-a-!").map(At.init) == At(.unsubscriptionInObservableDiagram, 3))
        #expect(hot("^-!").map(At.init) == At(.unsubscriptionInObservableDiagram, 2))
    }

    @Test func subscriptionDiagramErrors() {
        #expect(subscription("^-^").map(At.init) == At(.duplicateSubscriptionPoint, 2))
        #expect(subscription("^-!-!").map(At.init) == At(.duplicateUnsubscription, 4))
        #expect(subscription("^-a-!").map(At.init) == At(.unexpectedMarkerInSubscription("a"), 2))
        #expect(subscription("^-|").map(At.init) == At(.unexpectedMarkerInSubscription("|"), 2))
        #expect(subscription("-!-^").map(At.init) == At(.unsubscriptionBeforeSubscription, 1))
    }

    @Test func valueErrors() {
        let missing = caught { () throws(MarbleError) in
            _ = try Marbles.parse("-a-b", values: ["a": 1]) as [Recorded<Event<Int>>]
        }
        #expect(missing.map(At.init) == At(.missingValue("b"), 3))
        let needsMap = caught { () throws(MarbleError) in _ = try Marbles.parse("--x") as [Recorded<Event<Int>>] }
        #expect(needsMap.map(At.init) == At(.markerNeedsValue("x", elementType: "Int"), 2))
    }

    @Test func eventsAfterTerminal() {
        #expect(cold("a|b").map(At.init) == At(.eventAfterTerminal, 2))
        #expect(cold("#-a").map(At.init) == At(.eventAfterTerminal, 2))
        #expect(cold("(a|b)").map(At.init) == At(.eventAfterTerminal, 3))
        #expect(cold("|#").map(At.init) == At(.eventAfterTerminal, 1))
        // Only time may follow a terminal event.
        #expect(cold("a|-- 5ms ") == nil)
    }

    @Test func durationErrors() {
        #expect(cold("a 1.ms").map(At.init) == At(.malformedDuration, 4))
        #expect(cold("1..5s").map(At.init) == At(.malformedDuration, 2))
        #expect(cold("a .5s").map(At.init) == At(.malformedDuration, 2))
        #expect(cold("a -5ms b").map(At.init) == At(.negativeDuration, 2))
        // Finer than one attosecond cannot be exact.
        #expect(cold("0.0000000000000000001s").map(At.init) == At(.malformedDuration, 0))
        // Exactly one attosecond is fine.
        #expect(cold("0.000000000000000001s a") == nil)
    }

    @Test func hugeNumbersAreErrorsNotTraps() {
        #expect(cold("99999999999999999999999999999999999999999m a").map(\.kind) == .timeOutOfRange)
        #expect(cold("a 16666666666666667m b").map(At.init) == At(.timeOutOfRange, 2))
        // Regression (found by the fuzzer): 20 whole digits of minutes overflowed
        // Int128 in the multiplication, before the range check.
        #expect(cold("99999999999999999999m").map(At.init) == At(.timeOutOfRange, 0))
        #expect(cold("a 99999999999999999999.5m b").map(At.init) == At(.timeOutOfRange, 2))
        // Right at the limit of 10^15 s is fine; the next frame is not.
        #expect(cold("1000000000000000s") == nil)
        #expect(cold("1000000000000000s a").map(At.init) == At(.timeOutOfRange, 18))
        // Many large durations add up past the limit.
        let many = String(repeating: "900000000000000s ", count: 3) + "a"
        #expect(cold(many).map(At.init) == At(.timeOutOfRange, 17))
        // More frames than Int can count (a 1-attosecond frame).
        let tiny = caught { () throws(MarbleError) in
            _ = try Marbles.parse("10s a", frame: Duration(totalAttoseconds: 1)) as Events
        }
        #expect(tiny.map(At.init) == At(.timeOutOfRange, 4))
        // A huge frame: the second frame passes the limit.
        let huge = caught { () throws(MarbleError) in
            _ = try Marbles.parse("-a", frame: .seconds(900_000_000_000_000)) as Events
        }
        #expect(huge.map(At.init) == At(.timeOutOfRange, 1))
    }

    @Test func timeErrors() {
        let none = caught { () throws(MarbleError) in _ = try Marbles.time("---") }
        #expect(none.map(At.init) == At(.timeNeedsOneCompletion(count: 0), 3))
        let two = caught { () throws(MarbleError) in _ = try Marbles.time("-|-|") }
        #expect(two.map(At.init) == At(.timeNeedsOneCompletion(count: 2), 3))
        let caret = caught { () throws(MarbleError) in _ = try Marbles.time("^-|") }
        #expect(caret.map(\.kind) == .subscriptionPointInColdDiagram)
    }

    @Test func invalidFrame() {
        let zero = caught { () throws(MarbleError) in _ = try Marbles.parse("a", frame: .zero) as Events }
        #expect(zero.map(\.kind) == .invalidFrame)
    }

    // MARK: The message

    @Test func descriptionShowsCaretUnderOffendingCharacter() throws {
        let error = try #require(cold("--((a))"))
        #expect(
            error.description == """
                marble diagram error at column 4: a group cannot contain another group
                  --((a))
                     ^
                close the first group before opening the next one, e.g. "(ab)(cd)"
                """)
    }

    @Test func caretCountsWideCharactersAsTwoColumns() throws {
        let error = try #require(cold("🙂🙂|a"))
        #expect(error.position == 3)
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        // Two emoji are four columns, plus the bar: the caret is at column 2 + 5.
        #expect(lines[2] == "       ^")
    }

    @Test func caretAtEndForUnclosedTime() throws {
        let error = try #require(caught { () throws(MarbleError) in _ = try Marbles.time("--") })
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1] == "  --")
        #expect(lines[2] == "    ^")
    }

    @Test func timeRejectsMarkersAsRxJS9Does() throws {
        let error = try #require(caught { () throws(MarbleError) in _ = try Marbles.time("--a|") })
        #expect(error.kind == .markerInTimeDiagram("a"))
        #expect(error.position == 2)
        #expect(error.description.contains("  --a|\n    ^"))
        #expect(caught { () throws(MarbleError) in _ = try Marbles.time("-#|") }?.kind == .markerInTimeDiagram("#"))
        // Groups, whitespace and durations are still fine.
        #expect(try Marbles.time(" 5ms (|)") == .milliseconds(5))
    }

    @Test func aSpaceBeforeTheUnitGetsAHint() throws {
        let error = try #require(
            caught { () throws(MarbleError) in _ = try Marbles.parse("a 299 ms b", values: ["a": 1, "b": 2]) as [Recorded<Event<Int>>] })
        #expect(error.kind == .missingValue("2"))
        #expect(error.fix == "did you mean `299ms`? A duration is written without a space before its unit")
        let noMap = try #require(
            caught { () throws(MarbleError) in _ = try Marbles.parse("1.5 s |") as [Recorded<Event<Int>>] })
        #expect(noMap.fix.hasPrefix("did you mean `1.5s`?"))
        // A number followed by something that is not a unit gets the usual fix.
        let plain = try #require(
            caught { () throws(MarbleError) in _ = try Marbles.parse("299 x", values: ["x": 1]) as [Recorded<Event<Int>>] })
        #expect(plain.fix.hasPrefix("add \"2\" to the values map"))
    }

    @Test func replacementCharacterIsReported() throws {
        // What invalid UTF-8 becomes when decoded with repair.
        let text = String(decoding: [0x2D, 0x61, 0xFF, 0x7C] as [UInt8], as: UTF8.self)
        let error = try #require(caught { () throws(MarbleError) in _ = try Marbles.parse(text) as [Recorded<Event<String>>] })
        #expect(error.kind == .replacementCharacter)
        #expect(error.position == 2)
        #expect(error.summary.contains("not valid text"))
    }
}
