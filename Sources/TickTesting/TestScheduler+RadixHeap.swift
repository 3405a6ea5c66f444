#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(TickInternals) import Tick

// The radix heap that holds a TestScheduler's packed entries once there are
// many of them (see `WorkQueue` in TestScheduler+Queue.swift).

extension TestScheduler {
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
    /// ## Runs
    /// A bucket keeps its entries in the order they came: pushes append,
    /// `redistribute` moves a bucket's entries oldest first, and taking the
    /// smallest key leaves a hole (no entry is moved into it: the rest of
    /// the bucket moves out at once). So when many entries share a due time
    /// (ten thousand timers over a thousand due times), they reach their
    /// bucket in the order scheduled. When the smallest key taken was the
    /// first of its bucket and the rest are in increasing order and of that
    /// key's due time, `redistribute` checks it, they stay where they are
    /// and are taken from the front in turn, as the *run*: each one without
    /// being moved again to the lowest buckets (by sequence number) and
    /// without a search. Every key scheduled while the run lasts is above
    /// it: it is at or above `base`, so of a later due time, or of the
    /// run's due time with a newer sequence number; it goes to a bucket, and
    /// the run is taken first. The check is one comparison an entry, and
    /// stops at the first entry out of order.
    ///
    /// A bucket is a list of chunks of `chunkCapacity` entries, newest first
    /// (the only one that may be partly filled). Chunks come from slabs of the
    /// heap's own (256 KiB each, mapped with `mmap`, carved in order) and go
    /// back to a free list when they empty, kept until the heap goes: buckets
    /// grow without copying
    /// and without reallocating, so the queue neither leaves copied-from
    /// blocks behind (resident memory stays at about an entry's 32 bytes plus
    /// a partly filled chunk a bucket) nor interleaves reallocations with the
    /// program's own small allocations (measured: malloc then spent more on
    /// those than the radix heap saved). Guarded by the scheduler's lock, like
    /// the rest of the queue.
    ///
    /// A chunk is 4 KiB and starts on a 4 KiB boundary (slabs are mapped,
    /// so page-aligned, and carved in 4 KiB steps): its entries first, then
    /// the link to the bucket's next (older, full) chunk. A bucket is one
    /// pointer, its *cursor*: where its next entry goes in its newest chunk.
    /// The chunk's start is the cursor with its low 12 bits cleared, the
    /// entries it holds are the distance between the two, and the chunk is
    /// full when the cursor reaches the link. Filing an entry is then a load,
    /// a test and a store of the cursor, with no chunk header to read.
    struct RadixHeap {
        typealias Entry = WorkQueue.Entry

        /// One pointer: the place of the next entry in the newest chunk (nil:
        /// the bucket is empty). The table is 32 KiB (4,096 buckets).
        struct Bucket {
            var cursor: UnsafeMutableRawPointer?
        }

        static let digitBits = 8
        static let bucketCount = (128 / digitBits) << digitBits
        static let wordCount = bucketCount / 64
        /// The run's place in the table, after the buckets (never in the
        /// bitmap): `minBucket` while the smallest key is the run's. Its
        /// cursor is a chunk's start, which no bucket's cursor is, so that
        /// taking the smallest key tells a run from a bucket of one entry
        /// only once it is not the latter.
        static let runBucket = bucketCount
        static let chunkBytes = 4096
        /// The entries of a chunk: as many as fit before its link.
        static let chunkCapacity = (chunkBytes - MemoryLayout<UnsafeMutableRawPointer?>.stride) / MemoryLayout<Entry>.stride
        /// Where a chunk's link (to the next chunk of its bucket, or of the
        /// free list) is: right after its entries.
        static let linkOffset = chunkCapacity * MemoryLayout<Entry>.stride
        static let slabBytes = 256 * 1024
        static let chunksPerSlab = slabBytes / chunkBytes

        /// `bucketCount` buckets (zeroed: empty) and the run's, then `wordCount` words: bit
        /// *b* is set when bucket *b* holds an entry. Allocated once, when the
        /// heap is first used.
        var table: UnsafeMutableRawPointer?
        /// Where the slabs come from and go back to (see `SlabPool`).
        var slabPool = SlabPool.shared
        @inline(__always) var buckets: UnsafeMutablePointer<Bucket> {
            table.unsafelyUnwrapped.assumingMemoryBound(to: Bucket.self)
        }
        @inline(__always) var words: UnsafeMutablePointer<UInt64> {
            (table.unsafelyUnwrapped + (RadixHeap.bucketCount + 1) * MemoryLayout<Bucket>.stride)
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
        /// The run (see "Runs" above), while `minBucket` is `runBucket` and `count >
        /// 0`: its next entry is `minSlot`, the end of its entries in that
        /// chunk `runEnd`, and its newest chunk's cursor `runLast`. Its
        /// chunks are linked oldest first.
        var runEnd: UnsafeMutablePointer<Entry>?
        var runLast: UnsafeMutableRawPointer?
        var hasRun: Bool { minBucket == RadixHeap.runBucket && count > 0 }
        /// Chunks not in use, linked by their links.
        var freeChunks: UnsafeMutableRawPointer?
        /// The slabs (`slabCount` of them, room for `slabCapacity`), the newest
        /// one and the chunks handed out of it.
        var slabList: UnsafeMutablePointer<UnsafeMutableRawPointer>?
        var slabCount = 0
        var slabCapacity = 0
        var currentSlab: UnsafeMutableRawPointer?
        var slabChunksUsed = RadixHeap.chunksPerSlab

        /// The table's size: the buckets, then the bitmap's words.
        static let tableBytes = (bucketCount + 1) * MemoryLayout<Bucket>.stride + wordCount * 8

        /// Maps the table: zero pages that become resident only when a
        /// bucket on them is first used (a heap of a few thousand entries
        /// touches two or three of its nine pages). From `calloc`, all of it
        /// was zeroed, so resident, at once: `malloc` reuses pages that
        /// `malloc_trim` gave back and must clear them.
        mutating func allocateTable() {
            guard table == nil else { return }
            let bucketBytes = (RadixHeap.bucketCount + 1) * MemoryLayout<Bucket>.stride
            let mapped = mmap(nil, RadixHeap.tableBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            // (MAP_FAILED, spelled out: not every platform's overlay has it.)
            guard let raw = mapped, raw != UnsafeMutableRawPointer(bitPattern: -1) else {
                // Out of memory: nothing sensible is left to do.
                fatalError("TestScheduler: out of memory for its queue")
            }
            let buckets = raw.bindMemory(to: Bucket.self, capacity: RadixHeap.bucketCount + 1)
            buckets[RadixHeap.runBucket].cursor = UnsafeMutableRawPointer(bitPattern: RadixHeap.chunkBytes)
            _ = (raw + bucketBytes).bindMemory(to: UInt64.self, capacity: RadixHeap.wordCount)
            table = raw
        }

        /// The chunk a cursor points into (a cursor is never at a chunk's
        /// start: an empty chunk leaves its bucket).
        @inline(__always)
        static func chunk(of cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
            UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: cursor) & ~UInt(chunkBytes &- 1)).unsafelyUnwrapped
        }

        /// The entries before `cursor` in its chunk.
        @inline(__always)
        static func countBefore(_ cursor: UnsafeMutableRawPointer) -> Int {
            (Int(bitPattern: UInt(bitPattern: cursor)) & (chunkBytes &- 1)) / MemoryLayout<Entry>.stride
        }

        /// A chunk's link: the next chunk of its bucket (or of the free list).
        @inline(__always)
        static func link(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
            (chunk + linkOffset).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        }

        @inline(__always)
        static func entries(_ chunk: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Entry> {
            chunk.assumingMemoryBound(to: Entry.self)
        }

        /// The cursor of a bucket whose newest chunk is `chunk`, full (or nil).
        @inline(__always)
        static func fullCursor(_ chunk: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
            chunk.map { $0 + linkOffset }
        }

        /// The bucket of `key` (at or above `base`).
        @inline(__always)
        func bucket(of key: Int128) -> Int {
            // The highest differing bit, and the digit there, read from the
            // one 64-bit word of the key that holds it (a digit never
            // straddles the two words): cheaper than the same on `UInt128`.
            // Digits of the high word are read with the sign bit flipped, so
            // that their order is the keys' (signed) order.
            let difference = key ^ base
            let highDifference = UInt64(truncatingIfNeeded: difference &>> 64)
            let digitMask = (1 &<< RadixHeap.digitBits) &- 1
            let bucketsPerBit = (1 &<< RadixHeap.digitBits) / RadixHeap.digitBits
            if highDifference != 0 {
                let shift = (63 &- highDifference.leadingZeroBitCount) & ~(RadixHeap.digitBits &- 1)
                let word = UInt64(truncatingIfNeeded: key &>> 64) ^ (1 &<< 63)
                let digit = Int(truncatingIfNeeded: word &>> UInt64(shift)) & digitMask
                return (64 &+ shift) &* bucketsPerBit | digit
            }
            let lowDifference = UInt64(truncatingIfNeeded: difference) | 1
            let shift = (63 &- lowDifference.leadingZeroBitCount) & ~(RadixHeap.digitBits &- 1)
            let digit = Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: key) &>> UInt64(shift)) & digitMask
            return shift &* bucketsPerBit | digit
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
            if let cursor = bucket.pointee.cursor,
                Int(bitPattern: UInt(bitPattern: cursor)) & (RadixHeap.chunkBytes &- 1) != RadixHeap.linkOffset
            {
                bucket.pointee.cursor = cursor + MemoryLayout<Entry>.stride
                return cursor.assumingMemoryBound(to: Entry.self)
            }
            // Empty, or its newest chunk is full: a fresh chunk in front.
            let older = bucket.pointee.cursor.map(RadixHeap.chunk(of:))
            if older == nil { markFilled(b) }
            let fresh = takeChunk()
            RadixHeap.link(fresh).pointee = older
            bucket.pointee.cursor = fresh + MemoryLayout<Entry>.stride
            return RadixHeap.entries(fresh)
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
        @inline(__always)
        mutating func removeMin() -> Entry {
            let key = minKey
            return Entry(key: key, run: removeMinAction())
        }

        /// Removes the entry with the smallest key (`count > 0`, and that key
        /// is `minKey`) and returns its action: the key is known, so only the
        /// closure comes back (in registers, not through memory).
        @inline(never)
        mutating func removeMinAction() -> () -> Void {
            let b = minBucket
            let bucket = buckets + b
            let cursor = bucket.pointee.cursor.unsafelyUnwrapped
            let chunk = RadixHeap.chunk(of: cursor)
            if cursor == chunk + MemoryLayout<Entry>.stride && RadixHeap.link(chunk).pointee == nil {
                // The bucket's only entry.
                let top = minSlot.unsafelyUnwrapped.move()
                count &-= 1
                base = minKey
                recycle(chunk)
                bucket.pointee.cursor = nil
                markEmpty(b)
                if count > 0 { findMin() }
                return top.run
            }
            if b == RadixHeap.runBucket { return removeFirstOfRun() }
            // The rest of the bucket moves out, around the hole left.
            let slot = minSlot.unsafelyUnwrapped
            let top = slot.move()
            count &-= 1
            base = minKey
            redistribute(b, hole: slot)
            return top.run
        }

        /// Empties bucket `b` (the lowest non-empty, just after its smallest
        /// key, taken out of `hole`, became `base`): its entries become the
        /// run when they are one (see "Runs" above), or else move to the lower
        /// buckets where they now belong, in their order; then finds the
        /// smallest key. Keys are unique, so `b` is not of level 0.
        private mutating func redistribute(_ b: Int, hole: UnsafeMutablePointer<Entry>) {
            let emptied = buckets + b
            let last = emptied.pointee.cursor.unsafelyUnwrapped
            emptied.pointee.cursor = nil
            markEmpty(b)
            // The chunks, oldest first (the bucket links them newest first).
            var older: UnsafeMutableRawPointer? = RadixHeap.chunk(of: last)
            var newer: UnsafeMutableRawPointer? = nil
            while let chunk = older {
                older = RadixHeap.link(chunk).pointee
                RadixHeap.link(chunk).pointee = newer
                newer = chunk
            }
            let oldest = newer.unsafelyUnwrapped
            if isRun(from: oldest, last: last, hole: hole) {
                runEnd = RadixHeap.end(of: oldest, last: last)
                runLast = last
                minKey = (hole + 1).pointee.key
                minBucket = RadixHeap.runBucket
                minSlot = hole + 1
                return
            }
            let holeChunk = RadixHeap.chunk(of: UnsafeMutableRawPointer(hole))
            var next: UnsafeMutableRawPointer? = oldest
            while let chunk = next {
                next = RadixHeap.link(chunk).pointee
                let stop = RadixHeap.end(of: chunk, last: last)
                if chunk == holeChunk {
                    moveDown(from: RadixHeap.entries(chunk), to: hole)
                    moveDown(from: hole + 1, to: stop)
                } else {
                    moveDown(from: RadixHeap.entries(chunk), to: stop)
                }
                recycle(chunk)
            }
            findMin()
        }

        /// Moves the entries from `start` to `stop` (of the bucket being
        /// emptied) to the lower buckets where they now belong, in order: each
        /// key agrees with `base` on every digit from that bucket's level up.
        @inline(__always)
        private mutating func moveDown(from start: UnsafeMutablePointer<Entry>, to stop: UnsafeMutablePointer<Entry>) {
            var source = start
            while source != stop {
                slot(in: bucket(of: source.pointee.key)).initialize(to: source.move())
                source += 1
            }
        }

        /// The end of the entries of `chunk`, linked oldest first (in a run,
        /// or in `redistribute`), whose newest chunk's cursor is `last`.
        @inline(__always)
        static func end(of chunk: UnsafeMutableRawPointer, last: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Entry> {
            RadixHeap.link(chunk).pointee == nil
                ? last.assumingMemoryBound(to: Entry.self) : RadixHeap.entries(chunk) + chunkCapacity
        }

        /// Whether the entries of a bucket being emptied, linked oldest first
        /// from `oldest`, make a run: the first one is the `hole` (the key
        /// just removed, `base`), and the others are in increasing order and
        /// of `base`'s due time.
        private func isRun(from oldest: UnsafeMutableRawPointer, last: UnsafeMutableRawPointer, hole: UnsafeMutablePointer<Entry>) -> Bool {
            guard hole == RadixHeap.entries(oldest) else { return false }
            let due = base &>> 32
            var previous = base
            var next: UnsafeMutableRawPointer? = oldest
            var entry = hole + 1
            while let chunk = next {
                next = RadixHeap.link(chunk).pointee
                let stop = RadixHeap.end(of: chunk, last: last)
                while entry != stop {
                    let key = entry.pointee.key
                    if key <= previous || key &>> 32 != due { return false }
                    previous = key
                    entry += 1
                }
                if let next { entry = RadixHeap.entries(next) }
            }
            return true
        }

        /// Removes the run's first entry (the smallest key: `minBucket` is
        /// `runBucket`, `minSlot` the entry) and returns its action.
        private mutating func removeFirstOfRun() -> () -> Void {
            let entry = minSlot.unsafelyUnwrapped
            let top = entry.move()
            count &-= 1
            base = minKey
            var next = entry + 1
            if next == runEnd {
                // The chunk is done: the next (newer) one, or the run is over.
                let chunk = RadixHeap.chunk(of: UnsafeMutableRawPointer(entry))
                let newer = RadixHeap.link(chunk).pointee
                recycle(chunk)
                guard let newer else {
                    minBucket = 0
                    if count > 0 { findMin() }
                    return top.run
                }
                next = RadixHeap.entries(newer)
                runEnd = RadixHeap.end(of: newer, last: runLast.unsafelyUnwrapped)
            }
            minKey = next.pointee.key
            minSlot = next
            return top.run
        }

        /// Calls `body` with each of the run's entries and its chunk's end,
        /// then with the chunk (which the run then no longer uses).
        private static func forEachRunChunk(
            from next: UnsafeMutablePointer<Entry>, last: UnsafeMutableRawPointer,
            _ body: (UnsafeMutablePointer<Entry>, UnsafeMutablePointer<Entry>, UnsafeMutableRawPointer) -> Void
        ) {
            var first = next
            var chunk = RadixHeap.chunk(of: UnsafeMutableRawPointer(first))
            while true {
                let newer = RadixHeap.link(chunk).pointee
                body(first, RadixHeap.end(of: chunk, last: last), chunk)
                guard let newer else { return }
                chunk = newer
                first = RadixHeap.entries(newer)
            }
        }

        /// Finds the smallest key, in the lowest non-empty bucket (`count > 0`).
        /// That bucket usually holds one entry (most are of the lowest
        /// levels, spread from a redistributed bucket): taken at once, the
        /// scan only when it holds more.
        @inline(__always)
        private mutating func findMin() {
            let b = lowestFilled()
            let cursor = buckets[b].cursor.unsafelyUnwrapped
            let chunk = RadixHeap.chunk(of: cursor)
            if cursor == chunk + MemoryLayout<Entry>.stride && RadixHeap.link(chunk).pointee == nil {
                let only = RadixHeap.entries(chunk)
                minKey = only.pointee.key
                minBucket = b
                minSlot = only
                return
            }
            scanMin(b)
        }

        /// Finds the smallest key of bucket `b`, the lowest non-empty one.
        @inline(never)
        private mutating func scanMin(_ b: Int) {
            var cursor = buckets[b].cursor
            var best = RadixHeap.entries(RadixHeap.chunk(of: cursor.unsafelyUnwrapped))
            var bestKey = best.pointee.key
            while let end = cursor {
                let chunk = RadixHeap.chunk(of: end)
                var entry = RadixHeap.entries(chunk)
                let stop = end.assumingMemoryBound(to: Entry.self)
                while entry != stop {
                    let key = entry.pointee.key
                    if key < bestKey {
                        bestKey = key
                        best = entry
                    }
                    entry += 1
                }
                cursor = RadixHeap.fullCursor(RadixHeap.link(chunk).pointee)
            }
            minKey = bestKey
            minBucket = b
            minSlot = best
        }

        /// Moves every entry out to `body`, leaving the heap empty (its chunks
        /// kept for reuse).
        mutating func removeAll(_ body: (consuming Entry) -> Void) {
            if hasRun {
                RadixHeap.forEachRunChunk(from: minSlot.unsafelyUnwrapped, last: runLast.unsafelyUnwrapped) { first, end, chunk in
                    count &-= end - first
                    var entry = first
                    while entry != end {
                        body(entry.move())
                        entry += 1
                    }
                    recycle(chunk)
                }
                minBucket = 0
            }
            while count > 0 {
                let b = lowestFilled()
                markEmpty(b)
                let bucket = buckets + b
                var cursor = bucket.pointee.cursor
                bucket.pointee.cursor = nil
                while let end = cursor {
                    let chunk = RadixHeap.chunk(of: end)
                    let held = RadixHeap.countBefore(end)
                    count &-= held
                    let entries = RadixHeap.entries(chunk)
                    for index in 0..<held { body((entries + index).move()) }
                    cursor = RadixHeap.fullCursor(RadixHeap.link(chunk).pointee)
                    recycle(chunk)
                }
            }
            // `base` stays: the next push into the empty heap lowers it if needed.
        }

        /// A chunk: a free one, or the next of the newest slab.
        @inline(__always)
        private mutating func takeChunk() -> UnsafeMutableRawPointer {
            if let chunk = freeChunks {
                freeChunks = RadixHeap.link(chunk).pointee
                return chunk
            }
            return carveChunk()
        }

        @inline(never)
        private mutating func carveChunk() -> UnsafeMutableRawPointer {
            if slabChunksUsed == RadixHeap.chunksPerSlab {
                let slab = slabPool.take()
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
            _ = chunk.bindMemory(to: Entry.self, capacity: RadixHeap.chunkCapacity)
            _ = (chunk + RadixHeap.linkOffset).bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
            return chunk
        }

        /// Gives back a chunk whose entries moved out.
        @inline(__always)
        private mutating func recycle(_ chunk: UnsafeMutableRawPointer) {
            RadixHeap.link(chunk).pointee = freeChunks
            freeChunks = chunk
        }

        /// Releases the entries left and frees the memory (at the storage's end).
        func deallocate() {
            guard table != nil else { return }
            if hasRun {
                RadixHeap.forEachRunChunk(from: minSlot.unsafelyUnwrapped, last: runLast.unsafelyUnwrapped) { first, end, _ in
                    first.deinitialize(count: end - first)
                }
            }
            var summary = self.summary
            while summary != 0 {
                let w = summary.trailingZeroBitCount
                summary &= summary &- 1
                var word = words[w]
                while word != 0 {
                    var cursor = buckets[w &<< 6 | word.trailingZeroBitCount].cursor
                    word &= word &- 1
                    while let end = cursor {
                        let chunk = RadixHeap.chunk(of: end)
                        RadixHeap.entries(chunk).deinitialize(count: RadixHeap.countBefore(end))
                        cursor = RadixHeap.fullCursor(RadixHeap.link(chunk).pointee)
                    }
                }
            }
            for index in 0..<slabCount { slabPool.give(slabList.unsafelyUnwrapped[index]) }
            free(slabList)
            munmap(table, RadixHeap.tableBytes)
        }
    }
}
