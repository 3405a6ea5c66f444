#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(TickInternals) import Tick

// The queue behind a TestScheduler: the pending work in (due time, sequence
// number) order, guarded by the scheduler's lock. The state around it (the
// clock, cancellation's done bits, the drive) is in TestScheduler+State.swift.

extension TestScheduler {
    /// A scheduled action. Wrapping the closure in a concrete struct keeps it
    /// in its natural representation inside the generic heap; stored bare as
    /// the heap's `Payload`, every closure would be rewrapped in a
    /// reabstraction thunk (one allocation per scheduled action).
    struct Work {
        let run: () -> Void
    }

    /// The pending work, in (due time, sequence number) order.
    ///
    /// Almost every entry is *packed*: 32 bytes, whose whole ordering key is
    /// one `Int128`, the due time in attoseconds shifted left by 32 bits with
    /// the low 32 bits of the sequence number below it. Comparing two entries
    /// is one 128-bit comparison, and an entry is the key plus the closure
    /// (memory per pending action: 32 bytes, against 40 for a 24-byte key).
    /// The packed entries live in `packed`, a 4-ary heap, until it holds
    /// `radixThreshold` (1,024) of them; they then move to its radix heap
    /// (see `RadixHeap`) until that is empty again. Most real queues (an
    /// operator's timers) never leave the small heap.
    ///
    /// The packing is exact under two conditions, and everything else goes to
    /// `wide`, a heap with the full 128-bit due time and 64-bit sequence
    /// number (normally empty, so it costs one branch):
    /// - the due time fits in 96 bits (about ±1,255 years of attoseconds);
    /// - every packed entry belongs to the same *epoch* of sequence numbers
    ///   (`sequence >> epochBits`), so their low 32 bits order them and give
    ///   back the full number. When the first sequence number of a new epoch
    ///   is handed out (every 2³² schedules), the entries still packed move to
    ///   `wide` with their full numbers.
    ///
    /// A radix heap takes only keys at or above the last key it removed. The
    /// scheduler's keys almost always are (virtual time never goes back, and
    /// sequence numbers only grow within an epoch); the exception, a key below
    /// a cancelled entry that was dropped ahead of the clock, goes to `wide`.
    struct WorkQueue {
        struct Entry {
            var key: Int128
            var run: () -> Void
        }

        /// The packed entries while there are few of them: a 4-ary min-heap.
        let packed: PackedStorage
        var wide = SchedulerHeap<Work>()
        /// The epoch of the sequence numbers of every packed entry.
        var epoch: UInt64 = 0
        /// 32 in production; tests lower it to cross epochs quickly.
        let epochBits: UInt64
        /// The number of packed entries from which they move to the radix heap.
        let radixThreshold: Int

        init(epochBits: UInt64 = 32, radixThreshold: Int = 1024, slabPool: SlabPool = .shared) {
            self.epochBits = min(32, max(1, epochBits))
            self.radixThreshold = max(1, radixThreshold)
            packed = PackedStorage(heapLimit: self.radixThreshold, slabPool: slabPool)
        }

        var packedCount: Int { packed.count + packed.radixCount }
        var count: Int { packedCount + wide.count }
        var isEmpty: Bool { packedCount == 0 && wide.isEmpty }

        /// The full sequence number of a packed entry.
        @inline(__always)
        func sequence(ofPacked key: Int128) -> UInt64 {
            // `&<<` and `&>>`: `epochBits` is in 1...32, so the shifts are
            // plain (`<<` and `>>` test for a negative or oversized count).
            (epoch &<< epochBits) & ~0xFFFF_FFFF | UInt64(truncatingIfNeeded: key) & 0xFFFF_FFFF
        }

        /// (`run` is consumed: the caller's reference moves into the entry,
        /// with no retain for the queue's copy.)
        mutating func push(due: Int128, sequence: UInt64, _ run: __owned @escaping () -> Void) {
            pushInlined(due: due, sequence: sequence, consume run)
        }

        /// `push`'s body, inlined into `schedule(after:)`'s path (a timer's:
        /// no call, and the state's fields stay in registers). Everything
        /// else calls `push`: inlined into `enqueue(due:)` too, the larger
        /// function cost `scheduler_schedule_advance` 15 instructions an
        /// action.
        @inline(__always)
        mutating func pushInlined(due: Int128, sequence: UInt64, _ run: __owned @escaping () -> Void) {
            if sequence &>> epochBits != epoch { startEpoch(sequence &>> epochBits) }
            let key = due &<< 32
            if key &>> 32 == due {
                let entry = Entry(key: key | Int128(sequence & 0xFFFF_FFFF), run: consume run)
                // `heapLimit` is 0 while the radix heap is in use.
                if packed.count < packed.heapLimit { return pushPacked(entry) }
                return pushToRadix(entry)
            }
            wide.push(.init(due: Duration(totalAttoseconds: due), sequence: sequence, payload: Work(run: run)))
        }

        /// Pushes to the radix heap, first moving the small heap's entries
        /// there if it is full.
        @inline(__always)
        private mutating func pushToRadix(_ entry: consuming Entry) {
            // A limit that is not 0 here means the small heap is full (and
            // the radix heap empty).
            if packed.heapLimit != 0 { moveToRadix() }
            guard let rejected = packed.radix.pointee.push(entry) else { return }
            pushRejected(rejected)
        }

        /// An entry below the radix heap's last removed key (only after a
        /// cancelled entry ahead of the clock was dropped) goes to `wide`.
        @inline(never)
        private mutating func pushRejected(_ entry: consuming Entry) {
            wide.push(
                .init(
                    due: Duration(totalAttoseconds: entry.key &>> 32), sequence: sequence(ofPacked: entry.key),
                    payload: Work(run: entry.run)))
        }

        /// Moves the small heap's entries to the radix heap, with the smallest
        /// `base` there is: they all share one bucket (one list of chunks, so
        /// no memory is spent on many partly filled ones), which the first
        /// removal spreads over the buckets below it, each entry moved once.
        @inline(never)
        private mutating func moveToRadix() {
            if packed.radixHeap == nil {
                let radix = UnsafeMutablePointer<RadixHeap>.allocate(capacity: 1)
                var heap = RadixHeap()
                heap.slabPool = packed.slabPool
                radix.initialize(to: heap)
                radix.pointee.allocateTable()
                packed.radixHeap = radix
            }
            packed.radix.pointee.base = .min
            for index in 0..<packed.count {
                // At or above `base`: never rejected.
                _ = packed.radix.pointee.push((packed.base + index).move())
            }
            packed.count = 0
            packed.heapLimit = 0
            // The heap's block (32 KiB at 1,024 entries) is not needed while
            // the radix heap holds the entries; it grows again from 16 when
            // they are all gone.
            packed.releaseBlock()
        }

        /// Moves every packed entry to `wide` (with its full sequence number),
        /// so that the packed entries only ever belong to one epoch.
        private mutating func startEpoch(_ next: UInt64) {
            var moved = SchedulerHeap<Work>()
            swap(&moved, &wide)
            let (epoch, epochBits) = (epoch, epochBits)
            takePacked { entry in
                let sequence = (epoch << epochBits) & ~0xFFFF_FFFF | UInt64(truncatingIfNeeded: entry.key) & 0xFFFF_FFFF
                moved.push(
                    .init(
                        due: Duration(totalAttoseconds: entry.key &>> 32), sequence: sequence,
                        payload: Work(run: entry.run)))
            }
            swap(&moved, &wide)
            self.epoch = next
        }

        /// Moves every packed entry out to `body`, in no particular order.
        private mutating func takePacked(_ body: (consuming Entry) -> Void) {
            if packed.radixCount > 0 {
                packed.radix.pointee.removeAll(body)
                packed.heapLimit = radixThreshold
            }
            for index in 0..<packed.count { body((packed.base + index).move()) }
            packed.count = 0
        }

        /// The first entry's due time and sequence number, and whether it is packed.
        @inline(__always)
        func first() -> (due: Int128, sequence: UInt64, isPacked: Bool)? {
            let packedKey =
                packed.count > 0 ? packed.base.pointee.key : packed.heapLimit == 0 ? packed.radix.pointee.minKey : nil
            if wide.isEmpty {
                guard let key = packedKey else { return nil }
                return (key &>> 32, sequence(ofPacked: key), true)
            }
            let entry = wide.first.unsafelyUnwrapped
            let (wideDue, wideSequence) = (entry.due.totalAttoseconds, entry.sequence)
            if let key = packedKey {
                let due = key &>> 32
                let sequence = sequence(ofPacked: key)
                if due < wideDue || (due == wideDue && sequence < wideSequence) { return (due, sequence, true) }
            }
            return (wideDue, wideSequence, false)
        }

        /// Removes the first entry (as told by `first()`).
        @inline(__always)
        mutating func removeFirst(isPacked: Bool) -> () -> Void {
            guard isPacked else { return wide.popFirst().unsafelyUnwrapped.payload.run }
            // The small heap is empty while the radix heap is in use.
            if packed.count > 0 { return popPacked().unsafelyUnwrapped.run }
            return removeFirstOfRadix()
        }

        @inline(__always)
        private mutating func removeFirstOfRadix() -> () -> Void {
            let entry = packed.radix.pointee.removeMin()
            if packed.radix.pointee.count == 0 { packed.heapLimit = radixThreshold }
            return entry.run
        }

        /// Every entry, moved out of a queue that is left empty (and keeps its
        /// storage), to be released outside the scheduler's lock.
        struct Released {
            var packed: ContiguousArray<Work>
            var wide: SchedulerHeap<Work>
        }

        /// Takes every entry out; the queue is left empty, in the same epoch.
        mutating func takeAll() -> Released {
            var taken = ContiguousArray<Work>()
            taken.reserveCapacity(packedCount)
            takePacked { taken.append(Work(run: $0.run)) }
            var released = Released(packed: taken, wide: SchedulerHeap<Work>())
            swap(&released.wide, &wide)
            return released
        }

        private mutating func pushPacked(_ entry: consuming Entry) {
            if packed.count == packed.capacity { packed.grow() }
            // Sift up by moving parents down into a hole: moves only, so no
            // reference counting on the closures.
            let base = packed.base
            var hole = packed.count
            packed.count &+= 1
            let key = entry.key
            while hole > 0 {
                let parent = (hole &- 1) >> 2
                guard key < base[parent].key else { break }
                (base + hole).moveInitialize(from: base + parent, count: 1)
                hole = parent
            }
            (base + hole).initialize(to: entry)
        }

        /// Pops the small heap's first entry (`packed.count > 0`) and returns
        /// its action.
        @inline(__always)
        mutating func popPackedAction() -> () -> Void {
            popPacked().unsafelyUnwrapped.run
        }

        /// Pops the packed heap's first entry. Bottom-up: the hole left at the
        /// root walks down to a leaf along the smallest children (three
        /// comparisons a level, none against the entry being placed), then the
        /// last entry sifts up from there, which is usually at once since it
        /// came from the bottom.
        private mutating func popPacked() -> Entry? {
            guard packed.count > 0 else { return nil }
            let base = packed.base
            let count = packed.count &- 1
            packed.count = count
            let top = base.move()
            guard count > 0 else { return top }
            let lastPointer = base + count
            var hole = 0
            while true {
                let first = 4 &* hole &+ 1
                var smallest = first
                if first &+ 3 < count {
                    // Four children, side by side: a tournament.
                    let a = base[first].key < base[first &+ 1].key ? first : first &+ 1
                    let b = base[first &+ 2].key < base[first &+ 3].key ? first &+ 2 : first &+ 3
                    smallest = base[a].key < base[b].key ? a : b
                } else {
                    guard first < count else { break }
                    var child = first &+ 1
                    while child < count {
                        if base[child].key < base[smallest].key { smallest = child }
                        child &+= 1
                    }
                }
                (base + hole).moveInitialize(from: base + smallest, count: 1)
                hole = smallest
            }
            let key = lastPointer.pointee.key
            while hole > 0 {
                let parent = (hole &- 1) >> 2
                guard key < base[parent].key else { break }
                (base + hole).moveInitialize(from: base + parent, count: 1)
                hole = parent
            }
            (base + hole).moveInitialize(from: lastPointer, count: 1)
            return top
        }
    }

    /// The packed entries' storage: the small heap's entries in one block
    /// from `malloc`, grown with `realloc` (an entry, an `Int128` and a
    /// closure, moves bitwise, so the block may move as bytes), and the radix
    /// heap, out of line (so that a scheduler that never uses it pays only a
    /// pointer). Pushes and pops pay no copy-on-write uniqueness check, no
    /// bounds check and no copying growth, as they did in a `ContiguousArray`.
    /// Guarded by the scheduler's lock, like the rest of the queue (so no
    /// runtime exclusivity checks).
    final class PackedStorage {
        @exclusivity(unchecked) var base: UnsafeMutablePointer<WorkQueue.Entry>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var capacity = 0
        /// The radix heap, allocated the first time the small heap overflows.
        @exclusivity(unchecked) var radixHeap: UnsafeMutablePointer<RadixHeap>?
        /// The radix heap (once allocated).
        @inline(__always) var radix: UnsafeMutablePointer<RadixHeap> { radixHeap.unsafelyUnwrapped }
        /// The number of entries in the radix heap.
        @inline(__always) var radixCount: Int { radixHeap?.pointee.count ?? 0 }
        /// The number of entries the heap takes: `WorkQueue.radixThreshold`,
        /// or 0 while the packed entries are in `radix` (from when the heap
        /// overflows until `radix` is empty again; the heap is then empty).
        @exclusivity(unchecked) var heapLimit: Int

        /// `true` while the packed entries are in the radix heap.
        var inRadix: Bool { radixCount > 0 }

        /// Where the radix heap's slabs come from and go back to.
        let slabPool: SlabPool

        init(heapLimit: Int, slabPool: SlabPool) {
            self.heapLimit = heapLimit
            self.slabPool = slabPool
            // A block of no entries, so that `base` is never nil.
            base = PackedStorage.reallocate(nil, capacity: 0)
        }

        /// Doubles the capacity (at least 16 entries).
        func grow() {
            let newCapacity = max(16, capacity &* 2)
            base = PackedStorage.reallocate(UnsafeMutableRawPointer(base), capacity: newCapacity)
            capacity = newCapacity
        }

        /// Gives the block of the heap, now empty, back to `malloc`.
        func releaseBlock() {
            base = PackedStorage.reallocate(UnsafeMutableRawPointer(base), capacity: 0)
            capacity = 0
        }

        private static func reallocate(_ block: UnsafeMutableRawPointer?, capacity: Int) -> UnsafeMutablePointer<WorkQueue.Entry> {
            // malloc's blocks are aligned for any fundamental type (16 bytes on
            // the 64-bit platforms Tick runs on), enough for `Int128`.
            let bytes = max(1, capacity) * MemoryLayout<WorkQueue.Entry>.stride
            guard let raw = realloc(block, bytes) else {
                // Out of memory: nothing sensible is left to do.
                fatalError("TestScheduler: out of memory for \(capacity) pending actions")
            }
            return raw.bindMemory(to: WorkQueue.Entry.self, capacity: max(1, capacity))
        }

        deinit {
            base.deinitialize(count: count)
            free(base)
            if let radixHeap {
                radixHeap.pointee.deallocate()
                radixHeap.deinitialize(count: 1)
                radixHeap.deallocate()
            }
        }
    }

    /// For tests of the queue: makes the sequence-number epochs `2^bits` long
    /// (2³² otherwise), so that a test can cross many of them. Only before
    /// anything was scheduled.
    func useSequenceEpochs(ofBits bits: UInt64) {
        useQueue(epochBits: bits)
    }

    /// For tests of the queue: epochs of `2^epochBits` sequence numbers, and
    /// the packed entries move to the radix heap from `radixThreshold` of
    /// them (1024 otherwise). Only before anything was scheduled.
    func useQueue(epochBits: UInt64 = 32, radixThreshold: Int = 1024) {
        lock.withLock {
            if state.sequence == 0 { state.queue = WorkQueue(epochBits: epochBits, radixThreshold: radixThreshold) }
        }
    }
}
