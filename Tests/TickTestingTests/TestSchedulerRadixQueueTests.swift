import Synchronization
import Testing
@_spi(TickInternals) import Tick
@testable import TickTesting

/// The TestScheduler's work queue itself (the small packed heap, the radix
/// heap it moves to, the wide heap), driven the way the scheduler drives it,
/// against a reference: sort the pending (due time, sequence number) pairs.
@Suite struct TestSchedulerRadixQueueTests {
    typealias WorkQueue = TestScheduler.WorkQueue

    /// A queue and the reference, with the scheduler's rules: a due time
    /// before the clock is clamped to it, sequence numbers count up, taking
    /// an entry moves the clock to its due time, cancelled entries stay queued
    /// and are dropped (without moving the clock) when they come first.
    struct Harness {
        var queue: WorkQueue
        var pending: [(due: Int128, sequence: UInt64)] = []
        var cancelled: Set<UInt64> = []
        var now: Int128
        var sequence: UInt64 = 0
        var ran: [UInt64] = []

        init(epochBits: UInt64 = 32, radixThreshold: Int, now: Int128 = 0) {
            queue = WorkQueue(epochBits: epochBits, radixThreshold: radixThreshold)
            self.now = now
        }

        mutating func push(due: Int128) {
            let due = max(due, now)
            let sequence = self.sequence
            self.sequence += 1
            queue.push(due: due, sequence: sequence) {}
            pending.append((due, sequence))
        }

        mutating func cancelSome(_ rng: inout SeededGenerator, oneIn: Int) {
            for entry in pending where !cancelled.contains(entry.sequence) && Int.random(in: 0..<oneIn, using: &rng) == 0 {
                cancelled.insert(entry.sequence)
            }
        }

        /// Takes entries due at or before `limit` as `takeNext` does, checking
        /// each against the reference; peeks at the next one and leaves it.
        mutating func take(notAfter limit: Int128) {
            pending.sort { ($0.due, $0.sequence) < ($1.due, $1.sequence) }
            while let first = queue.first() {
                let expected = pending.first
                #expect(first.due == expected?.due)
                #expect(first.sequence == expected?.sequence)
                guard first.due <= limit, first.due == expected?.due, first.sequence == expected?.sequence else { break }
                _ = queue.removeFirst(isPacked: first.isPacked)
                pending.removeFirst()
                if cancelled.remove(first.sequence) == nil {
                    now = first.due
                    ran.append(first.sequence)
                }
            }
            if queue.first() == nil { #expect(pending.isEmpty) }
            #expect(queue.count == pending.count)
        }

        /// Takes at most `limit` entries (every one at whatever due time),
        /// checking each against the reference.
        mutating func take(atMost limit: Int) {
            pending.sort { ($0.due, $0.sequence) < ($1.due, $1.sequence) }
            for _ in 0..<limit {
                guard let first = queue.first() else { break }
                let expected = pending.first
                #expect(first.due == expected?.due)
                #expect(first.sequence == expected?.sequence)
                guard first.due == expected?.due, first.sequence == expected?.sequence else { break }
                _ = queue.removeFirst(isPacked: first.isPacked)
                pending.removeFirst()
                now = first.due
                ran.append(first.sequence)
            }
            #expect(queue.count == pending.count)
        }

        /// Whether the radix heap is taking its entries from a run.
        var inARun: Bool { queue.packed.inRadix && queue.packed.radix.pointee.hasRun }
    }

    /// Random rounds of pushes (equal due times, due times at the clock,
    /// beyond 96 bits, negative), cancellations and takes that stop short of
    /// the next entry, then earlier pushes; every round checked.
    func checkRandomRounds(epochBits: UInt64, radixThreshold: Int, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var harness = Harness(epochBits: epochBits, radixThreshold: radixThreshold, now: -5_000)
        let millisecond: Int128 = 1_000_000_000_000_000
        for round in 0..<300 {
            // Every 50 rounds, a burst that crosses the thresholds for sure.
            let pushes = round % 50 == 0 ? 3_000 : Int.random(in: 0..<40, using: &rng)
            for _ in 0..<pushes {
                let due: Int128
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: due = harness.now  // exactly the clock (the last taken due time)
                case 1: due = harness.now + Int128(Int.random(in: 1...3, using: &rng))  // attoseconds apart
                case 2: due = harness.now + (Int128(1) << 100) + Int128(Int.random(in: 0...2, using: &rng))  // beyond 96 bits
                case 3: due = harness.now - millisecond  // in the past: clamped
                case 4, 5: due = harness.now + 7 * millisecond  // equal due times
                default: due = harness.now + Int128(Int.random(in: 0..<100, using: &rng)) * millisecond
                }
                harness.push(due: due)
            }
            harness.cancelSome(&rng, oneIn: 6)
            harness.take(notAfter: harness.now + Int128(Int.random(in: 0..<60, using: &rng)) * millisecond)
        }
        harness.take(notAfter: .max)
        #expect(harness.pending.isEmpty)
        #expect(harness.queue.isEmpty)
        #expect(harness.ran.count > 1_000)
    }

    @Test(arguments: [1, 8, 1024] as [Int])
    func randomRoundsMatchTheReferenceSort(radixThreshold: Int) {
        checkRandomRounds(epochBits: 32, radixThreshold: radixThreshold, seed: 0xBEEF + UInt64(radixThreshold))
    }

    @Test(arguments: [2, 7] as [UInt64])
    func randomRoundsAcrossSequenceEpochs(epochBits: UInt64) {
        checkRandomRounds(epochBits: epochBits, radixThreshold: 4, seed: 0xE70C + epochBits)
    }

    /// Four due times, 250 entries each, scheduled in turn: each due time's
    /// entries end up in one bucket in the order scheduled, which the radix
    /// heap then takes as a run, in place (spanning chunks: 127 entries a
    /// chunk). Scheduling during a run, at its due time (after the run) or
    /// just after it, and peeking, keep the order.
    @Test func runsOfOneDueTimeKeepTheOrder() {
        var harness = Harness(radixThreshold: 16)
        let millisecond: Int128 = 1_000_000_000_000_000
        for index in 0..<1_000 { harness.push(due: Int128(1 + index % 4) * millisecond) }
        var runsSeen = 0
        while !harness.pending.isEmpty {
            harness.take(atMost: 37)
            if harness.inARun { runsSeen += 1 }
            if harness.ran.count < 2_000 {
                for _ in 0..<5 { harness.push(due: harness.now) }
                for offset in 1...3 { harness.push(due: harness.now + Int128(offset)) }
                harness.push(due: harness.now + millisecond)
            }
        }
        #expect(runsSeen > 10)
        #expect(harness.queue.isEmpty)
        #expect(harness.ran.count > 2_000)
    }

    /// A run's entries leave with the others: taken by `takeAll`, moved to
    /// the wide heap when a new epoch of sequence numbers starts, released
    /// with the queue. (A radix heap that takes over a small heap of one
    /// entry: the small heap's entries come in its order, not the order
    /// scheduled, and start no run. Nor do the entries of the first due time:
    /// they differ from the first key only in their sequence numbers, and
    /// spread over the lowest buckets; the second due time's are a run.)
    @Test func runsLeaveWithTheRestOfTheQueue() {
        let millisecond: Int128 = 1_000_000_000_000_000
        // takeAll in the middle of a run.
        var harness = Harness(radixThreshold: 1)
        for index in 0..<600 { harness.push(due: Int128(1 + index % 2) * millisecond) }
        harness.take(atMost: 310)
        #expect(harness.inARun)
        let released = harness.queue.takeAll()
        #expect(released.packed.count + released.wide.count == 290)
        harness.pending.removeAll()
        #expect(harness.queue.isEmpty)
        #expect(harness.queue.first() == nil)
        for index in 0..<300 { harness.push(due: harness.now + Int128(index % 3) * millisecond) }
        harness.take(notAfter: .max)
        #expect(harness.queue.isEmpty)

        // A new epoch (512 sequence numbers each) in the middle of a run.
        var epochs = Harness(epochBits: 9, radixThreshold: 1)
        for index in 0..<400 { epochs.push(due: Int128(1 + index % 2) * millisecond) }
        epochs.take(atMost: 210)
        #expect(epochs.inARun)
        for index in 0..<200 { epochs.push(due: epochs.now + Int128(index % 2) * millisecond) }
        epochs.take(notAfter: .max)
        #expect(epochs.queue.isEmpty)
        #expect(epochs.ran.count == 600)

        // The queue released in the middle of a run releases every action.
        final class Tracked: Sendable {
            let onDeinit: @Sendable () -> Void
            init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
        }
        let deinits = Mutex(0)
        do {
            var queue = WorkQueue(radixThreshold: 1)
            for index in 0..<600 {
                let tracked = Tracked { deinits.withLock { $0 += 1 } }
                queue.push(due: Int128(1 + index % 2) * millisecond, sequence: UInt64(index)) { _ = tracked }
            }
            for _ in 0..<310 {
                let first = queue.first().unsafelyUnwrapped
                _ = queue.removeFirst(isPacked: first.isPacked)
            }
            #expect(queue.packed.radix.pointee.hasRun)
            #expect(deinits.withLock { $0 } == 310)
        }
        #expect(deinits.withLock { $0 } == 600)
    }

    /// A cancelled entry dropped ahead of the clock leaves the radix heap's
    /// last key above the clock; an entry scheduled between the two must still
    /// come first (it goes to the wide heap).
    /// Slabs a radix heap gives back are handed to the next one (last in,
    /// first out), up to the pool's limit; past it they are unmapped.
    @Test func slabsGoBackToThePoolAndOutToTheNextHeap() {
        let pool = TestScheduler.SlabPool(limit: 2)
        let slabs = [pool.take(), pool.take(), pool.take()]
        #expect(Set(slabs).count == 3)
        for slab in slabs {
            // Every byte of a slab is usable.
            slab.storeBytes(of: 0xA5, as: UInt8.self)
            (slab + TestScheduler.RadixHeap.slabBytes - 1).storeBytes(of: 0x5A, as: UInt8.self)
            pool.give(slab)
        }
        #expect(pool.keptCount == 2)
        #expect(pool.take() == slabs[1])
        #expect(pool.take() == slabs[0])
        #expect(pool.keptCount == 0)
        let fresh = pool.take()
        #expect(fresh != slabs[0] && fresh != slabs[1])
        for slab in [slabs[0], slabs[1], fresh] { pool.give(slab) }
        #expect(pool.keptCount == 2)
    }

    /// A scheduler whose queue outgrew the small heap leaves its slabs for
    /// the next one when it goes.
    @Test func aSchedulersSlabsOutliveIt() {
        let pool = TestScheduler.SlabPool(limit: 8)
        var queue: WorkQueue? = WorkQueue(radixThreshold: 4, slabPool: pool)
        for index in 0..<100 { queue?.push(due: Int128(index % 7), sequence: UInt64(index)) {} }
        #expect(pool.keptCount == 0)
        queue = nil
        #expect(pool.keptCount == 1)
    }

    @Test func anEntryBelowADroppedCancelledOneStillComesFirst() {
        var harness = Harness(radixThreshold: 1)
        let millisecond: Int128 = 1_000_000_000_000_000
        harness.push(due: 10 * millisecond)
        harness.push(due: 500 * millisecond)
        harness.push(due: 900 * millisecond)
        harness.cancelled.insert(1)
        harness.take(notAfter: 10 * millisecond)
        #expect(harness.ran == [0])
        // Drops the cancelled entry at 500 ms; the clock stays at 10 ms.
        harness.take(notAfter: 600 * millisecond)
        #expect(harness.now == 10 * millisecond)
        harness.push(due: 200 * millisecond)
        harness.push(due: 200 * millisecond)
        harness.push(due: 950 * millisecond)
        harness.take(notAfter: .max)
        #expect(harness.ran == [0, 3, 4, 2, 5])
    }

    /// Peeking at an entry past the limit must not stop earlier entries from
    /// being scheduled afterwards, into the same radix heap.
    @Test func peekingPastTheLimitThenSchedulingEarlier() {
        var harness = Harness(radixThreshold: 1)
        let millisecond: Int128 = 1_000_000_000_000_000
        for due in [1_000, 2_000, 3_000] as [Int128] { harness.push(due: due * millisecond) }
        for step in 1...20 {
            harness.take(notAfter: Int128(step) * 100 * millisecond)
            harness.push(due: Int128(step) * 100 * millisecond + 50 * millisecond)
        }
        harness.take(notAfter: .max)
        #expect(harness.ran.count == 23)
        #expect(harness.queue.packed.inRadix == false)
    }

    /// Buckets past the pool's largest block (2,048 entries) and past the size
    /// at which an emptied bucket's block is freed (32,768): thousands of
    /// entries at a few due times, taken in part, pushed again, taken.
    @Test func largeBucketsKeepTheOrder() {
        var harness = Harness(radixThreshold: 1024)
        let millisecond: Int128 = 1_000_000_000_000_000
        for index in 0..<40_000 { harness.push(due: Int128(index % 3) * millisecond) }
        #expect(harness.queue.packed.inRadix)
        harness.take(notAfter: 1 * millisecond)
        for index in 0..<5_000 { harness.push(due: harness.now + Int128(index % 2) * millisecond) }
        harness.take(notAfter: .max)
        #expect(harness.ran.count == 45_000)
        #expect(harness.queue.isEmpty)
    }

    /// Keys of both signs, far apart (due times up to about ±2⁹⁴ attoseconds,
    /// so packed keys that differ in their top byte), in one radix heap.
    @Test func dueTimesOfBothSignsFarApartKeepTheOrder() {
        var rng = SeededGenerator(seed: 7)
        var harness = Harness(radixThreshold: 1, now: -(Int128(1) << 94))
        for round in 0..<20 {
            for _ in 0..<200 {
                let magnitude = Int128(1) << Int128(Int.random(in: 0...93, using: &rng))
                let due = Bool.random(using: &rng) ? magnitude : -magnitude
                harness.push(due: due + Int128(Int.random(in: 0...3, using: &rng)))
            }
            harness.take(notAfter: round == 19 ? .max : -(Int128(1) << Int128(93 - round)))
        }
        #expect(harness.pending.isEmpty)
        #expect(harness.ran.count == 4_000)
    }

    /// Draining the queue and filling it again, many times, above and below
    /// the threshold; taking everything out with `takeAll` in between.
    @Test func emptyAndRefillCycles() {
        var harness = Harness(radixThreshold: 16)
        let millisecond: Int128 = 1_000_000_000_000_000
        var rng = SeededGenerator(seed: 42)
        for cycle in 0..<40 {
            let count = cycle % 3 == 0 ? 100 : 5
            for _ in 0..<count {
                harness.push(due: harness.now + Int128(Int.random(in: 0..<20, using: &rng)) * millisecond)
            }
            #expect(harness.queue.packed.inRadix == (count >= 16))
            if cycle % 4 == 1 {
                let released = harness.queue.takeAll()
                #expect(released.packed.count + released.wide.count == count)
                harness.pending.removeAll()
                #expect(harness.queue.isEmpty)
                #expect(harness.queue.first() == nil)
            } else {
                harness.take(notAfter: .max)
                #expect(harness.queue.isEmpty)
            }
            #expect(harness.queue.packed.inRadix == false)
        }
    }
}
