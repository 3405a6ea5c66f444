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
    /// Almost every entry lives in `packed`: a 4-ary min-heap of 32-byte
    /// entries whose whole ordering key is one `Int128`, the due time in
    /// attoseconds shifted left by 32 bits with the low 32 bits of the
    /// sequence number below it. Comparing two entries is one 128-bit
    /// comparison, and an entry is the key plus the closure (memory per
    /// pending action: 32 bytes, against 40 for a 24-byte key).
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
    struct WorkQueue {
        struct Entry {
            var key: Int128
            var run: () -> Void
        }

        /// The packed heap's entries, in a block of their own (see `PackedStorage`).
        let packed = PackedStorage()
        var wide = SchedulerHeap<Work>()
        /// The epoch of the sequence numbers of every entry in `packed`.
        var epoch: UInt64 = 0
        /// 32 in production; tests lower it to cross epochs quickly.
        let epochBits: UInt64

        init(epochBits: UInt64 = 32) {
            self.epochBits = min(32, max(1, epochBits))
        }

        var count: Int { packed.count + wide.count }
        var isEmpty: Bool { packed.count == 0 && wide.isEmpty }

        /// The full sequence number of a packed entry.
        @inline(__always)
        func sequence(ofPacked key: Int128) -> UInt64 {
            (epoch << epochBits) & ~0xFFFF_FFFF | UInt64(truncatingIfNeeded: key) & 0xFFFF_FFFF
        }

        mutating func push(due: Int128, sequence: UInt64, _ run: @escaping () -> Void) {
            if sequence >> epochBits != epoch { startEpoch(sequence >> epochBits) }
            let key = due &<< 32
            if key &>> 32 == due {
                pushPacked(Entry(key: key | Int128(sequence & 0xFFFF_FFFF), run: run))
            } else {
                wide.push(.init(due: Duration(totalAttoseconds: due), sequence: sequence, payload: Work(run: run)))
            }
        }

        /// Moves every packed entry to `wide` (with its full sequence number),
        /// so that `packed` only ever holds one epoch.
        private mutating func startEpoch(_ next: UInt64) {
            for index in 0..<packed.count {
                let entry = (packed.base + index).move()
                wide.push(
                    .init(
                        due: Duration(totalAttoseconds: entry.key &>> 32), sequence: sequence(ofPacked: entry.key),
                        payload: Work(run: entry.run)))
            }
            packed.count = 0
            epoch = next
        }

        /// The first entry's due time and sequence number, and whether it is packed.
        @inline(__always)
        func first() -> (due: Int128, sequence: UInt64, isPacked: Bool)? {
            let packedKey = packed.count > 0 ? packed.base.pointee.key : nil
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
            isPacked ? popPacked().unsafelyUnwrapped.run : wide.popFirst().unsafelyUnwrapped.payload.run
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

    /// The packed heap's storage: its entries in one block from `malloc`,
    /// grown with `realloc` (an entry, an `Int128` and a closure, moves
    /// bitwise, so the block may move as bytes; glibc grows a large block by
    /// remapping its pages, without copying). Pushes and pops pay no
    /// copy-on-write uniqueness check, no bounds check and no copying growth,
    /// as they did in a `ContiguousArray`. Guarded by the scheduler's lock,
    /// like the rest of the queue (so no runtime exclusivity checks).
    final class PackedStorage {
        @exclusivity(unchecked) var base: UnsafeMutablePointer<WorkQueue.Entry>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var capacity = 0

        init() {
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
        }
    }

    /// For tests of the queue: makes the sequence-number epochs `2^bits` long
    /// (2³² otherwise), so that a test can cross many of them. Only before
    /// anything was scheduled.
    func useSequenceEpochs(ofBits bits: UInt64) {
        lock.withLock {
            if state.sequence == 0 { state.queue = WorkQueue(epochBits: bits) }
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
        /// alive in a reference cycle if the clock never gets there.
        mutating func takeAllIfAllCancelled() -> WorkQueue? {
            guard cancelledInHeap == queue.count else { return nil }
            cancelledInHeap = 0
            var emptied = WorkQueue(epochBits: queue.epochBits)
            emptied.epoch = queue.epoch
            swap(&emptied, &queue)
            return emptied
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
