#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
@_spi(TickInternals) import Tick

// The queue behind a TestScheduler: the pending work and the bookkeeping of
// cancellation, all of it guarded by the scheduler's lock.

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

        init(epochBits: UInt64 = 32, radixThreshold: Int = 1024) {
            self.epochBits = min(32, max(1, epochBits))
            self.radixThreshold = max(1, radixThreshold)
            packed = PackedStorage(heapLimit: self.radixThreshold)
        }

        var packedCount: Int { packed.count + packed.radixCount }
        var count: Int { packedCount + wide.count }
        var isEmpty: Bool { packedCount == 0 && wide.isEmpty }

        /// The full sequence number of a packed entry.
        @inline(__always)
        func sequence(ofPacked key: Int128) -> UInt64 {
            (epoch << epochBits) & ~0xFFFF_FFFF | UInt64(truncatingIfNeeded: key) & 0xFFFF_FFFF
        }

        mutating func push(due: Int128, sequence: UInt64, _ run: @escaping () -> Void) {
            if sequence >> epochBits != epoch { startEpoch(sequence >> epochBits) }
            let key = due &<< 32
            if key &>> 32 == due {
                let entry = Entry(key: key | Int128(sequence & 0xFFFF_FFFF), run: run)
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
            if packed.radixCount == 0 { moveToRadix() }
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
                radix.initialize(to: RadixHeap())
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

        init(heapLimit: Int) {
            self.heapLimit = heapLimit
            // A block of no entries, so that `base` is never nil.
            base = PackedStorage.reallocate(nil, capacity: 0)
        }

        /// Doubles the capacity (at least 16 entries).
        func grow() {
            let newCapacity = max(16, capacity &* 2)
            base = PackedStorage.reallocate(UnsafeMutableRawPointer(base), capacity: newCapacity)
            capacity = newCapacity
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


    /// The radix heap of packed entries: a monotone priority queue. It keeps
    /// `base`, the last key removed (no key in it is smaller, and it takes no
    /// smaller one), and reads keys in 8-bit digits: an entry is filed in
    /// bucket (*level*, *digit*), where *level* is the highest digit in which
    /// its key differs from `base` and *digit* is the key's digit there. So
    /// every key in a bucket is smaller than every key in a higher bucket, and
    /// the smallest key lives in the lowest non-empty bucket (a bitmap of the
    /// non-empty buckets finds it). Removing that key makes it the new `base`
    /// and moves the rest of its bucket to lower buckets: an entry only ever
    /// moves down, a few times at most, and each move is a copy in sequential
    /// order (no sifting through a large array, which is what a heap's cache
    /// misses cost with a million entries). Equal due times need no special
    /// care: the key's low 32 bits, the sequence number, keep them in the
    /// order scheduled.
    ///
    /// The smallest key's place is kept up to date (`minKey`, `minBucket`,
    /// `minSlot`), so reading the first entry changes nothing: the scheduler
    /// peeks at entries it does not take (past the `advance` target) and may
    /// then schedule earlier work, which a heap that had moved `base` up to
    /// the peeked key could no longer take.
    ///
    /// A bucket is a list of chunks of `chunkCapacity` entries, newest first
    /// (the only one that may be partly filled). Chunks come from slabs of the
    /// heap's own (from malloc, carved in order) and go back to a free list
    /// when they empty, kept until the heap goes: buckets grow without copying
    /// and without reallocating, so the queue neither leaves copied-from
    /// blocks behind (resident memory stays at about an entry's 32 bytes plus
    /// a partly filled chunk a bucket) nor interleaves reallocations with the
    /// program's own small allocations (measured: malloc then spent more on
    /// those than the radix heap saved). Guarded by the scheduler's lock, like
    /// the rest of the queue.
    struct RadixHeap {
        typealias Entry = WorkQueue.Entry

        struct Bucket {
            /// The newest chunk (nil: the bucket is empty).
            var head: UnsafeMutableRawPointer?
            var count: Int
        }

        /// A chunk starts with this header, then its entries.
        struct ChunkHeader {
            var next: UnsafeMutableRawPointer?
            var count: Int
        }

        static let digitBits = 8
        static let bucketCount = (128 / digitBits) << digitBits
        static let wordCount = bucketCount / 64
        static let chunkBytes = 4096
        static let chunkCapacity = (chunkBytes - MemoryLayout<ChunkHeader>.stride) / MemoryLayout<Entry>.stride
        static let slabBytes = 256 * 1024
        static let chunksPerSlab = slabBytes / chunkBytes

        /// `bucketCount` buckets (zeroed: empty), then `wordCount` words: bit
        /// *b* is set when bucket *b* holds an entry. Allocated once, when the
        /// heap is first used.
        var table: UnsafeMutableRawPointer?
        @inline(__always) var buckets: UnsafeMutablePointer<Bucket> {
            table.unsafelyUnwrapped.assumingMemoryBound(to: Bucket.self)
        }
        @inline(__always) var words: UnsafeMutablePointer<UInt64> {
            (table.unsafelyUnwrapped + RadixHeap.bucketCount * MemoryLayout<Bucket>.stride)
                .assumingMemoryBound(to: UInt64.self)
        }
        /// Bit *w* is set when word *w* is not zero.
        var summary: UInt64 = 0
        var base: Int128 = .min
        var count = 0
        /// The smallest key, its bucket and its entry (meaningful when `count > 0`).
        var minKey: Int128 = .min
        var minBucket = 0
        var minSlot: UnsafeMutablePointer<Entry>?
        /// Chunks not in use, linked by their headers.
        var freeChunks: UnsafeMutableRawPointer?
        /// The slabs (`slabCount` of them, room for `slabCapacity`), the newest
        /// one and the chunks handed out of it.
        var slabList: UnsafeMutablePointer<UnsafeMutableRawPointer>?
        var slabCount = 0
        var slabCapacity = 0
        var currentSlab: UnsafeMutableRawPointer?
        var slabChunksUsed = RadixHeap.chunksPerSlab

        mutating func allocateTable() {
            guard table == nil else { return }
            let bucketBytes = RadixHeap.bucketCount * MemoryLayout<Bucket>.stride
            guard let raw = calloc(1, bucketBytes + RadixHeap.wordCount * 8) else {
                // Out of memory: nothing sensible is left to do.
                fatalError("TestScheduler: out of memory for its queue")
            }
            _ = raw.bindMemory(to: Bucket.self, capacity: RadixHeap.bucketCount)
            _ = (raw + bucketBytes).bindMemory(to: UInt64.self, capacity: RadixHeap.wordCount)
            table = raw
        }

        @inline(__always)
        static func header(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutablePointer<ChunkHeader> {
            chunk.assumingMemoryBound(to: ChunkHeader.self)
        }

        @inline(__always)
        static func entries(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Entry> {
            (chunk + MemoryLayout<ChunkHeader>.stride).assumingMemoryBound(to: Entry.self)
        }

        /// The bucket of `key` (at or above `base`).
        @inline(__always)
        func bucket(of key: Int128) -> Int {
            let difference = UInt128(bitPattern: key ^ base) | 1
            let highest = 127 &- difference.leadingZeroBitCount
            let shift = highest & ~(RadixHeap.digitBits &- 1)
            // Digits are read with the sign bit flipped, so that their order
            // is the keys' (signed) order. A digit never straddles the two
            // words of the key.
            let word =
                shift >= 64
                ? UInt64(truncatingIfNeeded: key &>> 64) ^ (1 &<< 63) : UInt64(truncatingIfNeeded: key)
            let digit = Int(truncatingIfNeeded: word &>> UInt64(shift & 63)) & (1 &<< RadixHeap.digitBits &- 1)
            return shift &* ((1 &<< RadixHeap.digitBits) / RadixHeap.digitBits) | digit
        }

        @inline(__always)
        mutating func markFilled(_ b: Int) {
            words[b &>> 6] |= 1 &<< UInt64(b & 63)
            summary |= 1 &<< UInt64(b &>> 6)
        }

        @inline(__always)
        mutating func markEmpty(_ b: Int) {
            let word = words[b &>> 6] & ~(1 &<< UInt64(b & 63))
            words[b &>> 6] = word
            if word == 0 { summary &= ~(1 &<< UInt64(b &>> 6)) }
        }

        /// The lowest non-empty bucket (`count > 0`).
        @inline(__always)
        func lowestFilled() -> Int {
            let w = summary.trailingZeroBitCount
            return w &<< 6 | words[w].trailingZeroBitCount
        }

        /// A place for one more entry at the end of bucket `b` (the caller
        /// initializes it).
        @inline(__always)
        mutating func slot(in b: Int) -> UnsafeMutablePointer<Entry> {
            let bucket = buckets + b
            var chunk = bucket.pointee.head
            if chunk == nil || RadixHeap.header(chunk.unsafelyUnwrapped).pointee.count == RadixHeap.chunkCapacity {
                if bucket.pointee.count == 0 { markFilled(b) }
                let fresh = takeChunk()
                RadixHeap.header(fresh).pointee = ChunkHeader(next: chunk, count: 0)
                bucket.pointee.head = fresh
                chunk = fresh
            }
            let header = RadixHeap.header(chunk.unsafelyUnwrapped)
            let index = header.pointee.count
            header.pointee.count = index &+ 1
            bucket.pointee.count &+= 1
            return RadixHeap.entries(chunk.unsafelyUnwrapped) + index
        }

        /// Adds an entry; hands it back if its key is below the last key
        /// removed while other entries are pending.
        @inline(__always)
        mutating func push(_ entry: consuming Entry) -> Entry? {
            let key = entry.key
            if key < base {
                // Empty: any base at or below every key to come will do.
                guard count == 0 else { return entry }
                base = .min
            }
            let b = bucket(of: key)
            let slot = slot(in: b)
            slot.initialize(to: entry)
            if count == 0 || key < minKey {
                minKey = key
                minBucket = b
                minSlot = slot
            }
            count &+= 1
            return nil
        }

        /// Removes the entry with the smallest key (`count > 0`).
        @inline(never)
        mutating func removeMin() -> Entry {
            let b = minBucket
            let bucket = buckets + b
            let slot = minSlot.unsafelyUnwrapped
            let top = slot.move()
            // The bucket's last entry fills the hole.
            let head = bucket.pointee.head.unsafelyUnwrapped
            let header = RadixHeap.header(head)
            let last = RadixHeap.entries(head) + (header.pointee.count &- 1)
            if last != slot { slot.moveInitialize(from: last, count: 1) }
            header.pointee.count &-= 1
            if header.pointee.count == 0 {
                bucket.pointee.head = header.pointee.next
                recycle(head)
            }
            bucket.pointee.count &-= 1
            count &-= 1
            base = top.key
            if bucket.pointee.count > 0 {
                redistribute(b)
            } else {
                markEmpty(b)
                if count > 0 { findMin() }
            }
            return top
        }

        /// Moves the entries of bucket `b` (the lowest non-empty, just after
        /// its smallest key became `base`) to the lower buckets where they now
        /// belong, then finds the smallest (in the lowest of them, usually a
        /// small one). Keys are unique, so `b` is not of level 0.
        private mutating func redistribute(_ b: Int) {
            let emptied = buckets + b
            var chunk = emptied.pointee.head
            emptied.pointee.head = nil
            emptied.pointee.count = 0
            markEmpty(b)
            while let current = chunk {
                let header = RadixHeap.header(current)
                let entries = RadixHeap.entries(current)
                for index in 0..<header.pointee.count {
                    let source = entries + index
                    // A lower bucket: the key agrees with `base` on every
                    // digit from `b`'s level up.
                    slot(in: bucket(of: source.pointee.key)).moveInitialize(from: source, count: 1)
                }
                chunk = header.pointee.next
                recycle(current)
            }
            findMin()
        }

        /// Finds the smallest key, in the lowest non-empty bucket (`count > 0`).
        private mutating func findMin() {
            let b = lowestFilled()
            var chunk = buckets[b].head
            var best = RadixHeap.entries(chunk.unsafelyUnwrapped)
            var bestKey = best.pointee.key
            while let current = chunk {
                let entries = RadixHeap.entries(current)
                let header = RadixHeap.header(current)
                for index in 0..<header.pointee.count {
                    let key = entries[index].key
                    if key < bestKey {
                        bestKey = key
                        best = entries + index
                    }
                }
                chunk = header.pointee.next
            }
            minKey = bestKey
            minBucket = b
            minSlot = best
        }

        /// Moves every entry out to `body`, leaving the heap empty (its chunks
        /// kept for reuse).
        mutating func removeAll(_ body: (consuming Entry) -> Void) {
            while count > 0 {
                let b = lowestFilled()
                markEmpty(b)
                let bucket = buckets + b
                var chunk = bucket.pointee.head
                count &-= bucket.pointee.count
                bucket.pointee.head = nil
                bucket.pointee.count = 0
                while let current = chunk {
                    let header = RadixHeap.header(current)
                    let entries = RadixHeap.entries(current)
                    for index in 0..<header.pointee.count { body((entries + index).move()) }
                    chunk = header.pointee.next
                    recycle(current)
                }
            }
            // `base` stays: the next push into the empty heap lowers it if needed.
        }

        /// A chunk: a free one, or the next of the newest slab.
        @inline(__always)
        private mutating func takeChunk() -> UnsafeMutableRawPointer {
            if let chunk = freeChunks {
                freeChunks = RadixHeap.header(chunk).pointee.next
                return chunk
            }
            return carveChunk()
        }

        @inline(never)
        private mutating func carveChunk() -> UnsafeMutableRawPointer {
            if slabChunksUsed == RadixHeap.chunksPerSlab {
                // Mapped, not from malloc: whole pages, touched only as chunks
                // are carved (malloc's header would cost a page a slab).
                let slab = mmap(nil, RadixHeap.slabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                // (MAP_FAILED, spelled out: not every platform's overlay has it.)
                guard let slab, slab != UnsafeMutableRawPointer(bitPattern: -1) else {
                    // Out of memory: nothing sensible is left to do.
                    fatalError("TestScheduler: out of memory for its queue")
                }
                if slabCount == slabCapacity {
                    slabCapacity = max(8, slabCapacity &* 2)
                    guard let grown = realloc(slabList, slabCapacity * MemoryLayout<UnsafeMutableRawPointer>.stride) else {
                        fatalError("TestScheduler: out of memory for its queue")
                    }
                    slabList = grown.bindMemory(to: UnsafeMutableRawPointer.self, capacity: slabCapacity)
                }
                slabList.unsafelyUnwrapped[slabCount] = slab
                slabCount &+= 1
                currentSlab = slab
                slabChunksUsed = 0
            }
            let chunk = currentSlab.unsafelyUnwrapped + slabChunksUsed * RadixHeap.chunkBytes
            slabChunksUsed &+= 1
            _ = chunk.bindMemory(to: ChunkHeader.self, capacity: 1)
            _ = (chunk + MemoryLayout<ChunkHeader>.stride).bindMemory(to: Entry.self, capacity: RadixHeap.chunkCapacity)
            return chunk
        }

        /// Gives back a chunk whose entries moved out.
        @inline(__always)
        private mutating func recycle(_ chunk: UnsafeMutableRawPointer) {
            RadixHeap.header(chunk).pointee.next = freeChunks
            freeChunks = chunk
        }

        /// Releases the entries left and frees the memory (at the storage's end).
        func deallocate() {
            guard table != nil else { return }
            var summary = self.summary
            while summary != 0 {
                let w = summary.trailingZeroBitCount
                summary &= summary &- 1
                var word = words[w]
                while word != 0 {
                    var chunk = buckets[w &<< 6 | word.trailingZeroBitCount].head
                    word &= word &- 1
                    while let current = chunk {
                        RadixHeap.entries(current).deinitialize(count: RadixHeap.header(current).pointee.count)
                        chunk = RadixHeap.header(current).pointee.next
                    }
                }
            }
            for index in 0..<slabCount { munmap(slabList.unsafelyUnwrapped[index], RadixHeap.slabBytes) }
            free(slabList)
            free(table)
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

    struct State {
        var queue: WorkQueue
        var sequence: UInt64 = 0
        var current: Duration
        /// One bit per sequence number ever scheduled: set once the entry ran or
        /// was cancelled. Entries leave the queue in strictly increasing (due,
        /// sequence) order, so this is all cancellation needs to know, and the
        /// disposable it hands out can be two words with no allocation.
        var done: [UInt64] = []
        /// Cancelled entries still sitting in the queue.
        var cancelledInHeap = 0
        var isAdvancing = false
        /// The thread running the current `advance`/`run` (to tell a second
        /// thread's call from a call made inside an action).
        var advancingThread: pthread_t?
        var stopRequested = false
        var budget: Int

        init(current: Duration, budget: Int, epochBits: UInt64 = 32) {
            self.current = current
            self.budget = budget
            self.queue = WorkQueue(epochBits: epochBits)
        }

        var pending: Int { queue.count - cancelledInHeap }

        @inline(__always)
        func isDone(_ sequence: UInt64) -> Bool {
            done[Int(sequence >> 6)] & (1 << (sequence & 63)) != 0
        }

        @inline(__always)
        mutating func markDone(_ sequence: UInt64) {
            done[Int(sequence >> 6)] |= 1 << (sequence & 63)
        }

        mutating func enqueue(
            due: Duration, frame: Duration, simulateProcessingDelay: Bool, _ action: @escaping () -> Void
        ) -> UInt64 {
            var due = due.totalAttoseconds
            let now = current.totalAttoseconds
            if due <= now {
                due = simulateProcessingDelay ? now + frame.totalAttoseconds : now
            }
            let key = sequence
            if sequence & 63 == 0 { done.append(0) }
            queue.push(due: due, sequence: sequence, action)
            sequence &+= 1
            return key
        }

        /// Marks a pending entry cancelled; `false` if it already ran or was cancelled.
        mutating func cancel(_ sequence: UInt64) -> Bool {
            guard sequence < self.sequence, !isDone(sequence) else { return false }
            markDone(sequence)
            cancelledInHeap += 1
            return true
        }

        /// When every entry left in the queue is cancelled, takes them all out
        /// (to be released by the caller outside the lock). Cancelled actions
        /// otherwise stay in the queue until the clock passes them, and one that
        /// captures this scheduler (any time operator's sink does) would keep it
        /// alive in a reference cycle if the clock never gets there. The queue
        /// keeps its storage, so a timer that is scheduled, cancelled and
        /// scheduled again allocates nothing for the queue.
        mutating func takeAllIfAllCancelled() -> WorkQueue.Released? {
            guard cancelledInHeap == queue.count else { return nil }
            cancelledInHeap = 0
            return queue.takeAll()
        }

        /// `true` if an entry that was not cancelled is due at or before `limit`
        /// (any, if nil). Drops cancelled entries found at the front.
        mutating func hasRunnable(notAfter limit: Duration?) -> Bool {
            let limit = limit?.totalAttoseconds
            while let first = queue.first(), limit.map({ first.due <= $0 }) ?? true {
                guard isDone(first.sequence) else { return true }
                _ = queue.removeFirst(isPacked: first.isPacked)
                cancelledInHeap -= 1
            }
            return false
        }

        /// Takes the next entry due at or before `limit` (any, if nil) that was
        /// not cancelled, and moves the clock to its due time.
        mutating func takeNext(notAfter limit: Duration?) -> (() -> Void)? {
            let limit = limit?.totalAttoseconds
            while let first = queue.first(), limit.map({ first.due <= $0 }) ?? true {
                let run = queue.removeFirst(isPacked: first.isPacked)
                if isDone(first.sequence) {
                    cancelledInHeap -= 1
                    continue
                }
                markDone(first.sequence)
                current = Duration(totalAttoseconds: first.due)
                return run
            }
            return nil
        }
    }
}
