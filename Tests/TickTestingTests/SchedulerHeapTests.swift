import Testing
@_spi(TickInternals) import Tick
import TickTesting

/// The heap's pop order against the obvious reference: sort by (time, sequence).
@Suite(.checksResourceLeaks) struct SchedulerHeapTests {
    @Test func tenThousandRandomEntriesPopInTimeThenSequenceOrder() {
        var rng = SeededGenerator(seed: 42)
        var heap = SchedulerHeap<Int>()
        var reference: [(due: Duration, sequence: UInt64)] = []
        // Few distinct times, so ties are common.
        for sequence in 0..<10_000 as Range<UInt64> {
            let due = Duration.milliseconds(Int.random(in: 0..<500, using: &rng))
            heap.push(.init(due: due, sequence: sequence, payload: Int(sequence)))
            reference.append((due, sequence))
        }
        reference.sort { ($0.due, $0.sequence) < ($1.due, $1.sequence) }
        var popped: [(due: Duration, sequence: UInt64)] = []
        while let entry = heap.popFirst() {
            #expect(entry.payload == Int(entry.sequence))
            popped.append((entry.due, entry.sequence))
        }
        #expect(popped.count == reference.count)
        #expect(popped.map(\.sequence) == reference.map(\.sequence))
        #expect(popped.map(\.due) == reference.map(\.due))
    }

    @Test func interleavedPushesAndPopsMatchTheReference() {
        var rng = SeededGenerator(seed: 7)
        var heap = SchedulerHeap<Void>()
        var reference: [(due: Duration, sequence: UInt64)] = []
        var sequence: UInt64 = 0
        for _ in 0..<10_000 {
            if Bool.random(using: &rng) || reference.isEmpty {
                let due = Duration.microseconds(Int.random(in: 0..<1000, using: &rng))
                heap.push(.init(due: due, sequence: sequence, payload: ()))
                reference.append((due, sequence))
                sequence += 1
            } else {
                let index = reference.indices.min { (reference[$0].due, reference[$0].sequence) < (reference[$1].due, reference[$1].sequence) }!
                let expected = reference.remove(at: index)
                let entry = heap.popFirst()
                #expect(entry?.due == expected.due)
                #expect(entry?.sequence == expected.sequence)
            }
        }
        #expect(heap.count == reference.count)
    }

    @Test func schedulerRunsTenThousandRandomActionsInReferenceOrder() {
        var rng = SeededGenerator(seed: 2026)
        let scheduler = TestScheduler(stepBudget: 20_000)
        var ran: [Int] = []
        var reference: [(time: Int, index: Int)] = []
        for index in 0..<10_000 {
            let time = Int.random(in: 0..<300, using: &rng)
            scheduler.scheduleAt(TestTime(time)) { ran.append(index) }
            reference.append((time, index))
        }
        scheduler.run()
        reference.sort { ($0.time, $0.index) < ($1.time, $1.index) }
        #expect(ran == reference.map(\.index))
    }
}
