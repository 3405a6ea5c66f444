/// Hand-written floors for the gate's scenarios 2, 4, 5 and 6 (issue 25): the
/// same observable work as the Tick scenario, written with nothing of Tick and
/// the cheapest structures we can write, on ``RadixFloorQueue`` (frames of
/// 1 ms). What they leave out is what Tick pays for: subscriptions and their
/// disposal, locks, cancellation, attosecond times, the grammar checks of a
/// sequence, misuse reports, leak tracking. `Benchmarks/gate.sh` prints each
/// scenario's ratio to its floor.
enum ScenarioFloors {
    /// One recorded event: its frame and value (a testable observer's record).
    struct Record: Equatable {
        let time: Int64
        let value: Int
    }

    /// The state an action of a floor reaches (one object, fields without
    /// runtime exclusivity checks: the benchmark is single-threaded).
    final class Chain {
        @exclusivity(unchecked) var values: [Int] = []
        @exclusivity(unchecked) var cursor = 0
        @exclusivity(unchecked) var accumulator = 0
        @exclusivity(unchecked) var records: [Record] = []
        /// `delay`'s elements waiting for their due time, in order (all are
        /// delayed by the same amount, so due order is arrival order).
        @exclusivity(unchecked) var delayed: [Record] = []
        @exclusivity(unchecked) var delayedHead = 0
    }

    /// Scenario 2's floor: a hot source of N `next` events at frames 1…N
    /// (scheduled in the set-up, as the hot test observable's are), each run
    /// through `map { $0 &* 3 }`, `filter { $0 % 2 == 0 }`, `scan(0, &+)` and
    /// recorded with its frame. One closure for every event (the hot test
    /// observable does the same: an action that emits the next event).
    static func hotChain(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "floor_hot_map_filter_scan", operations: n, repetitions: repetitions,
            setup: { () -> (RadixFloorQueue, Chain) in
                var queue = RadixFloorQueue(capacity: n)
                let chain = Chain()
                chain.values = Array(0..<n)
                chain.records.reserveCapacity(n / 2 + 1)
                let emit: (inout RadixFloorQueue) -> Void = { queue in
                    let value = chain.values[chain.cursor]
                    chain.cursor &+= 1
                    let mapped = value &* 3
                    guard mapped % 2 == 0 else { return }
                    chain.accumulator &+= mapped
                    chain.records.append(Record(time: queue.now, value: chain.accumulator))
                }
                for index in 0..<n { queue.schedule(at: Int64(index + 1), emit) }
                return (queue, chain)
            }
        ) { state in
            state.0.run()
            state.0.deallocate()
            precondition(state.1.records.count == (n + 1) / 2)
        }
    }

    /// Scenario 4's floor: N events at frames 1…N (scheduled in the set-up),
    /// each delayed by 1 s (1,000 frames) and then recorded. `delay` keeps
    /// the waiting elements in a queue and one timer at a time; as every
    /// element waits the same time, each arrival schedules its delivery and
    /// each delivery takes the oldest waiting element.
    static func delay(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "floor_delay_operator", operations: n, repetitions: repetitions,
            setup: { () -> (RadixFloorQueue, Chain) in
                var queue = RadixFloorQueue(capacity: 2 * n)
                let chain = Chain()
                chain.values = Array(0..<n)
                chain.records.reserveCapacity(n)
                chain.delayed.reserveCapacity(n)
                let deliver: (inout RadixFloorQueue) -> Void = { queue in
                    let element = chain.delayed[chain.delayedHead]
                    chain.delayedHead &+= 1
                    chain.records.append(Record(time: queue.now, value: element.value))
                }
                let arrive: (inout RadixFloorQueue) -> Void = { queue in
                    let value = chain.values[chain.cursor]
                    chain.cursor &+= 1
                    chain.delayed.append(Record(time: queue.now, value: value))
                    queue.schedule(at: queue.now &+ 1_000, deliver)
                }
                for index in 0..<n { queue.schedule(at: Int64(index + 1), arrive) }
                return (queue, chain)
            }
        ) { state in
            state.0.run()
            state.0.deallocate()
            precondition(state.1.records.count == n && state.1.records.last?.time == Int64(n + 1_000))
        }
    }

    /// Scenario 5's floor: N one-shot timers due at 1 + index % 1,000 ms,
    /// each delivering its value to a counter when it fires.
    static func timers(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "floor_many_timers", operations: n, repetitions: repetitions,
            setup: { (RadixFloorQueue(), Sink()) }
        ) { state in
            let sink = state.1
            let fire: (inout RadixFloorQueue) -> Void = { _ in sink.count &+= 1 }
            for index in 0..<n { state.0.schedule(at: Int64(1 + index % 1_000), fire) }
            state.0.run()
            state.0.deallocate()
            precondition(sink.count == n)
        }
    }

    /// A marble event: a value or the completion, at a frame.
    enum MarbleEvent: Equatable {
        case next(Int64, String)
        case completed(Int64)
    }

    /// The events of a marble diagram of one-letter values, `-`, groups and
    /// `|` (RxJS's rules: every character is a frame; a group's events share
    /// the frame where it opens, and the group takes its width in frames).
    @inline(__always)
    static func parse(_ diagram: String) -> [MarbleEvent] {
        var events: [MarbleEvent] = []
        var frame: Int64 = 0
        var groupStart: Int64? = nil
        for byte in diagram.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                frame &+= 1
            case UInt8(ascii: "("):
                groupStart = frame
                frame &+= 1
            case UInt8(ascii: ")"):
                groupStart = nil
                frame &+= 1
            case UInt8(ascii: "|"):
                events.append(.completed(groupStart ?? frame))
                frame &+= 1
            default:
                events.append(.next(groupStart ?? frame, String(UnicodeScalar(byte))))
                frame &+= 1
            }
        }
        return events
    }

    /// The recorder of the marble floor: a cold source's events, mapped and
    /// recorded with the frame they ran at.
    final class MarbleRun {
        @exclusivity(unchecked) var source: [MarbleEvent] = []
        @exclusivity(unchecked) var cursor = 0
        @exclusivity(unchecked) var recorded: [MarbleEvent] = []
    }

    /// Scenario 6's floor: N times, parse a cold diagram, run its events
    /// through `map { $0.uppercased() }` on a queue of its own (subscribed at
    /// frame 0, so each event is due at its own frame), record them, parse
    /// the expected diagram and compare.
    static func marbleAssertions(_ n: Int, repetitions: Int) -> Measurement {
        measure("floor_marble_assertions", operations: n, repetitions: repetitions, setup: { () }) { _ in
            var matched = 0
            for _ in 0..<n {
                var queue = RadixFloorQueue()
                let run = MarbleRun()
                run.source = parse("-a-b-(cd)-|")
                run.recorded.reserveCapacity(run.source.count)
                let emit: (inout RadixFloorQueue) -> Void = { queue in
                    switch run.source[run.cursor] {
                    case .next(_, let value): run.recorded.append(.next(queue.now, value.uppercased()))
                    case .completed: run.recorded.append(.completed(queue.now))
                    }
                    run.cursor &+= 1
                }
                for event in run.source {
                    switch event {
                    case .next(let frame, _), .completed(let frame): queue.schedule(at: frame, emit)
                    }
                }
                queue.run()
                queue.deallocate()
                if run.recorded == parse("-A-B-(CD)-|") { matched &+= 1 }
            }
            precondition(matched == n, "every expectation held")
        }
    }
}
