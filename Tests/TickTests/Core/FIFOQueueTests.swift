import Testing
@testable import Tick

/// `FIFOQueue` against an array as the reference model: random appends,
/// removals, copies (copy-on-write) and clears, with elements that count
/// how many of them are alive, so a slot left initialized or freed twice
/// shows up as a wrong count.
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
        #expect(queue.isEmpty)
        #expect(queue.count == 0)
        #expect(queue.first == nil)
        #expect(queue.first { $0 } == nil)
        #expect(queue.removeFirst() == nil)
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
                #expect(queue.removeFirst() == model.removeFirst())
            }
            #expect(queue.count == model.count)
            #expect(queue.first == model.first)
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
            // Copies taken along the way, each with the model it had then.
            var copies: [(FIFOQueue<Tracked>, [Int])] = []
            var value = 0
            for _ in 0..<4_000 {
                switch generator.next(10) {
                case 0..<5:
                    queue.append(Tracked(value, counter))
                    model.append(value)
                    value += 1
                case 5..<8:
                    #expect(queue.removeFirst()?.value == (model.isEmpty ? nil : model.removeFirst()))
                case 8:
                    if copies.count < 8 { copies.append((queue, model)) }
                default:
                    if generator.next(20) == 0 {
                        queue.removeAll()
                        model.removeAll()
                    }
                }
                #expect(queue.count == model.count)
                #expect(queue.first?.value == model.first)
            }
            // Every copy still holds what it held when taken, whatever the
            // original did since.
            for (var copy, copyModel) in copies {
                var drained: [Int] = []
                while let element = copy.removeFirst() { drained.append(element.value) }
                #expect(drained == copyModel)
            }
            var drained: [Int] = []
            while let element = queue.removeFirst() { drained.append(element.value) }
            #expect(drained == model)
        }
        // Everything appended was released exactly once.
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

    @Test func aCopyIsNotChangedByTheOriginal() {
        var queue = FIFOQueue<Int>()
        for value in 0..<3 { queue.append(value) }
        var copy = queue
        queue.append(3)
        queue.removeFirst()
        #expect(copy.count == 3)
        #expect(copy.removeFirst() == 0)
        #expect(queue.first == 1)
        #expect(queue.count == 3)
    }

    /// `OwnedFIFOQueue` (a queue that is never copied, so it skips the
    /// uniqueness check) against an array: random appends, removals and
    /// clears across wrap-around and growth, reading the head in place, with
    /// every element released exactly once, including those still queued
    /// when it is dropped.
    @Test(arguments: [6, 7, 8])
    func theOwnedQueueMatchesAnArray(seed: UInt64) {
        let counter = Counter()
        do {
            var generator = Generator(state: seed)
            var queue = OwnedFIFOQueue<Tracked>()
            var model: [Int] = []
            var value = 0
            for _ in 0..<4_000 {
                switch generator.next(10) {
                case 0..<5:
                    queue.append(Tracked(value, counter))
                    model.append(value)
                    value += 1
                case 5..<9:
                    #expect(queue.removeFirst()?.value == (model.isEmpty ? nil : model.removeFirst()))
                default:
                    if generator.next(20) == 0 {
                        queue.removeAll()
                        model.removeAll()
                    }
                }
                #expect(queue.first { $0.value } == model.first)
                #expect(counter.live == model.count)
            }
            #expect(!model.isEmpty, "the run ends with elements queued, so dropping the queue is checked")
        }
        #expect(counter.live == 0)
    }
}
