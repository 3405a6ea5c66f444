import Testing
@testable import Tick

/// `FIFOQueue` against an array as the reference model: random appends,
/// removals and clears across wrap-around and growth, with elements that
/// count how many of them are alive, so a slot left initialized or freed
/// twice shows up as a wrong count.
@Suite struct FIFOQueueTests {
    /// A class element that counts the live instances in `Counter`.
    final class Tracked {
        let value: Int
        let counter: Counter
        init(_ value: Int, _ counter: Counter) {
            self.value = value
            self.counter = counter
            counter.live += 1
        }
        deinit { counter.live -= 1 }
    }

    final class Counter { var live = 0 }

    /// A small deterministic generator (SplitMix64), so a failure repeats.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test func emptyQueue() {
        var queue = FIFOQueue<Int>()
        // Read into locals first: `#expect` captures the operands of the
        // expression it is given, and the queue cannot be copied.
        let (isEmpty, count, first, firstPart) = (queue.isEmpty, queue.count, queue.first, queue.first { $0 })
        let removed = queue.removeFirst()
        #expect(isEmpty)
        #expect(count == 0)
        #expect(first == nil)
        #expect(firstPart == nil)
        #expect(removed == nil)
    }

    @Test func keepsOrderAcrossWrapAroundAndGrowth() {
        var queue = FIFOQueue<Int>()
        var model: [Int] = []
        var next = 0
        // Remove one for every two appended, so the head walks round the
        // ring while it grows.
        for round in 0..<1_000 {
            queue.append(next)
            model.append(next)
            next += 1
            if round % 2 == 1 {
                let removed = queue.removeFirst()
                #expect(removed == model.removeFirst())
            }
            let (count, first) = (queue.count, queue.first)
            #expect(count == model.count)
            #expect(first == model.first)
        }
        while let value = queue.removeFirst() { #expect(value == model.removeFirst()) }
        #expect(model.isEmpty)
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func matchesAnArrayUnderRandomOperations(seed: UInt64) {
        let counter = Counter()
        do {
            var generator = Generator(state: seed)
            var queue = FIFOQueue<Tracked>()
            var model: [Int] = []
            var value = 0
            for _ in 0..<4_000 {
                switch generator.next(10) {
                case 0..<5:
                    queue.append(Tracked(value, counter))
                    model.append(value)
                    value += 1
                case 5..<9:
                    let removed = queue.removeFirst()?.value
                    #expect(removed == (model.isEmpty ? nil : model.removeFirst()))
                default:
                    if generator.next(20) == 0 {
                        queue.removeAll()
                        model.removeAll()
                    }
                }
                let (count, first, firstPart) = (queue.count, queue.first?.value, queue.first { $0.value })
                #expect(count == model.count)
                #expect(first == model.first)
                #expect(firstPart == model.first)
                #expect(counter.live == model.count)
            }
            #expect(!model.isEmpty, "the run ends with elements queued, so dropping the queue is checked")
        }
        // Everything appended was released exactly once, including what the
        // queue still held when it was dropped.
        #expect(counter.live == 0)
    }

    @Test func releasesWhatItStillHoldsWhenDropped() {
        let counter = Counter()
        do {
            var queue = FIFOQueue<Tracked>()
            for value in 0..<37 { queue.append(Tracked(value, counter)) }
            for _ in 0..<5 { queue.removeFirst() }
            #expect(counter.live == 32)
        }
        #expect(counter.live == 0)
    }
}
