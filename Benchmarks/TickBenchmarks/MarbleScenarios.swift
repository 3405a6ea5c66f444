import Tick
import TickTesting

/// Marble output at scale (issue 25): `Marbles.print` and `Marbles.diff` of
/// N events, with the process's CPU time per event (target: 1M events each in
/// under 2 s of CPU, release).
enum MarbleScenarios {
    /// N `next` events of one-letter strings (`a` … `z`, so the markers are
    /// the elements themselves), mostly three frames apart; every 50th event
    /// shares the frame of the one before (a group), the one after each
    /// 1,000th comes after a quiet stretch of 100 frames (a duration token);
    /// then `completed`.
    static func timeline(_ n: Int) -> [Recorded<Event<String>>] {
        let letters = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        var events: [Recorded<Event<String>>] = []
        events.reserveCapacity(n + 1)
        var frame = 0
        for index in 0..<n {
            if index > 0 {
                // A group `(xy)` is four frames wide: the event after one comes six frames later.
                frame += index % 50 == 0 ? 0 : index % 1_000 == 1 ? 100 : index % 50 == 1 ? 6 : 3
            }
            events.append(.next(TestTime(frame), letters[index % letters.count]))
        }
        events.append(.completed(TestTime(frame + 3)))
        return events
    }

    /// `Marbles.print` of N events (see ``timeline(_:)``).
    static func print(_ n: Int, repetitions: Int) -> Measurement {
        let events = timeline(n)
        var result = measure("marble_print", operations: n, repetitions: repetitions, cpu: true, setup: { () }) { _ in
            let printed = Marbles.print(events)
            precondition(printed.isExact && printed.diagram.utf8.count > n)
        }
        result.notes.append(cpuTotal(result, n))
        return result
    }

    /// `Marbles.diff` of two timelines of N events that differ in one
    /// element in the middle: both printed with one marker table, the
    /// differences listed, the window around the first one cut out.
    static func diff(_ n: Int, repetitions: Int) -> Measurement {
        let expected = timeline(n)
        var actual = expected
        actual[n / 2] = .next(actual[n / 2].time, "A")
        var result = measure("marble_diff", operations: n, repetitions: repetitions, cpu: true, setup: { () }) { _ in
            let diff = Marbles.diff(expected: expected, actual: actual)
            precondition(!diff.isEqual && diff.description.contains("first difference"))
        }
        result.notes.append(cpuTotal(result, n))
        return result
    }

    private static func cpuTotal(_ result: Measurement, _ n: Int) -> String {
        guard let perEvent = result.cpuNanosecondsPerOperation else { return "cpu not measured" }
        let seconds = perEvent * Double(n) / 1e9
        return "cpu \(format(seconds, 3)) s in total (target for 1M: < 2 s)"
    }
}
