#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
@_spi(TickInternals) import Tick

// The state behind a TestScheduler, all of it guarded by the scheduler's
// lock: the clock, the sequence numbers, the queue (TestScheduler+Queue.swift)
// with the done bits of cancellation, the drive's flags and the step
// budget; and the clock published for readers that take no lock.

extension TestScheduler {
    struct State {
        var queue: WorkQueue
        var sequence: UInt64 = 0
        /// The clock. Every change is published to `published` too, which
        /// ``TestScheduler/now`` reads without taking the lock.
        var current: Duration {
            @inline(__always) get { clock }
            @inline(__always) set {
                clock = newValue
                published.publish(newValue)
            }
        }
        private var clock: Duration
        let published: PublishedClock
        /// One bit per sequence number ever scheduled: set once the entry ran or
        /// was cancelled. Entries leave the queue in strictly increasing (due,
        /// sequence) order, so this is all cancellation needs to know, and the
        /// disposable it hands out can be plain data with no allocation.
        let done = DoneBits()
        /// Cancelled entries still sitting in the queue.
        var cancelledInHeap = 0
        var isAdvancing = false
        /// The thread running the current `advance`/`run` (to tell a second
        /// thread's call from a call made inside an action).
        var advancingThread: pthread_t?
        var stopRequested = false
        var budget: Int
        /// Set only by property checks that explore the order of same-instant
        /// work (Properties/OrderExploration.swift); `nil` costs one branch
        /// in `enqueue` and `takeNext`.
        var orderExplorer: OrderExplorer?

        init(current: Duration, budget: Int, published: PublishedClock, epochBits: UInt64 = 32) {
            self.clock = current
            self.published = published
            published.publish(current)
            self.budget = budget
            self.queue = WorkQueue(epochBits: epochBits)
        }

        var pending: Int { queue.count - cancelledInHeap }

        /// Whether `sequence` (one already handed out) ran or was cancelled.
        @inline(__always)
        func isDone(_ sequence: UInt64) -> Bool {
            done.words[Int(truncatingIfNeeded: sequence &>> 6)] & (1 &<< (sequence & 63)) != 0
        }

        @inline(__always)
        func markDone(_ sequence: UInt64) {
            done.words[Int(truncatingIfNeeded: sequence &>> 6)] |= 1 &<< (sequence & 63)
        }

        mutating func enqueue(
            due: Duration, frame: Duration, simulateProcessingDelay: Bool, _ action: __owned @escaping () -> Void
        ) -> UInt64 {
            var due = due.totalAttoseconds
            let now = current.totalAttoseconds
            if due <= now {
                due = simulateProcessingDelay ? now + frame.totalAttoseconds : now
            }
            return add(due: due, inliningThePush: false, consume action)
        }

        /// `enqueue` of a due time already after the clock (no clamp):
        /// `schedule(after:)` with a positive delay. The same steps, with
        /// the queue's push inlined (see `WorkQueue.pushInlined`).
        @inline(__always)
        mutating func push(due: Int128, _ action: __owned @escaping () -> Void) -> UInt64 {
            add(due: due, inliningThePush: true, consume action)
        }

        /// Gives `action` the next sequence number and queues it at `due`
        /// (already clamped). `inliningThePush` is a constant at each caller.
        @inline(__always)
        private mutating func add(due: Int128, inliningThePush: Bool, _ action: __owned @escaping () -> Void) -> UInt64 {
            let key = sequence
            if Int(truncatingIfNeeded: sequence &>> 6) == done.capacity { done.grow() }
            if inliningThePush {
                queue.pushInlined(due: due, sequence: sequence, consume action)
            } else {
                queue.push(due: due, sequence: sequence, consume action)
            }
            sequence &+= 1
            if let orderExplorer { orderExplorer.noteScheduled(key, fromAction: isAdvancing) }
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
        /// not cancelled, and moves the clock to its due time. (Inlined into
        /// the drive loops, which then convert `limit` once, not per action.)
        @inline(__always)
        mutating func takeNext(notAfter limit: Duration?) -> (() -> Void)? {
            let limit = limit?.totalAttoseconds
            if let orderExplorer { return takeNextExploring(notAfter: limit, orderExplorer) }
            // The usual case first: no wide entries, so the packed queue's
            // first key is the first entry (no tuple of three, no optional).
            if queue.wide.isEmpty { return takeNextPacked(notAfter: limit ?? .max) }
            return takeNextOfAll(notAfter: limit)
        }

        /// `takeNext` with entries in `wide`: the first of the packed and
        /// the wide entries each time. Kept apart so that the usual case's
        /// code (`takeNextPacked`) pays for none of its registers.
        @inline(never)
        private mutating func takeNextOfAll(notAfter limit: Int128?) -> (() -> Void)? {
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

        /// `takeNext` while `wide` is empty: the first packed entry is the
        /// first entry. Same rules (cancelled entries dropped on the way, the
        /// clock moved to the entry's due time).
        @inline(__always)
        private mutating func takeNextPacked(notAfter limit: Int128) -> (() -> Void)? {
            while true {
                let key: Int128
                let run: () -> Void
                if queue.packed.count > 0 {
                    key = queue.packed.base.pointee.key
                    guard key &>> 32 <= limit else { return nil }
                    run = queue.popPackedAction()
                } else if queue.packed.heapLimit == 0 {
                    // The radix heap holds the packed entries (at least one).
                    let radix = queue.packed.radix
                    key = radix.pointee.minKey
                    guard key &>> 32 <= limit else { return nil }
                    run = radix.pointee.removeMinAction()
                    if radix.pointee.count == 0 { queue.packed.heapLimit = queue.radixThreshold }
                } else {
                    return nil
                }
                let sequence = queue.sequence(ofPacked: key)
                if isDone(sequence) {
                    cancelledInHeap -= 1
                    continue
                }
                markDone(sequence)
                current = Duration(totalAttoseconds: key &>> 32)
                return run
            }
        }
    }
}

extension TestScheduler {
    /// The done bits of `State.done`: one per sequence number handed out,
    /// in a block of their own, doubled (the new words zeroed) before the
    /// first sequence number of a word is handed out. Read and written under
    /// the scheduler's lock, like the rest of the state, so no runtime
    /// exclusivity checks; and, unlike an array's, no copy-on-write
    /// uniqueness check or bounds check at each access (about 15
    /// instructions a scheduled action): every index the state reads is
    /// below the count of sequence numbers handed out, so inside the block.
    final class DoneBits {
        @exclusivity(unchecked) private(set) var words: UnsafeMutablePointer<UInt64>
        /// The words the block holds.
        @exclusivity(unchecked) private(set) var capacity: Int

        init() {
            capacity = 16
            words = .allocate(capacity: 16)
            words.initialize(repeating: 0, count: 16)
        }

        /// Doubles the block (rare: once per doubling of the actions ever
        /// scheduled, so a copy costs nothing that shows).
        @inline(never)
        func grow() {
            let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity &* 2)
            grown.moveInitialize(from: words, count: capacity)
            (grown + capacity).initialize(repeating: 0, count: capacity)
            words.deallocate()
            words = grown
            capacity &*= 2
        }

        deinit { words.deallocate() }
    }
}

/// A ``TestScheduler``'s clock, readable without its lock: a sequence lock.
/// The scheduler writes it (always under its own lock, so one writer at a
/// time) each time the clock changes; readers (``TestScheduler/now``, read
/// by every time operator, twice an element by `delay`) retry while a write
/// is in progress. A read is a few loads instead of a lock and an unlock.
///
/// The orderings are those of the usual sequence lock over atomics: the
/// writer makes `version` odd, a release fence, the value, then `version`
/// even with release; the reader loads `version` with acquire, the value,
/// an acquire fence, and `version` again: equal and even, the value is one
/// write's, whole. Every field is atomic, so no access is a data race.
final class PublishedClock: Sendable {
    private let version = Atomic<UInt64>(0)
    private let low = Atomic<UInt64>(0)
    private let high = Atomic<UInt64>(0)

    /// Publishes `value` (called under the scheduler's lock only).
    @inline(__always)
    func publish(_ value: Duration) {
        let attoseconds = value.totalAttoseconds
        let start = version.load(ordering: .relaxed)
        version.store(start &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        low.store(UInt64(truncatingIfNeeded: attoseconds), ordering: .relaxed)
        high.store(UInt64(truncatingIfNeeded: attoseconds &>> 64), ordering: .relaxed)
        version.store(start &+ 2, ordering: .releasing)
    }

    /// The last value published.
    @inline(__always)
    func read() -> Duration {
        while true {
            let before = version.load(ordering: .acquiring)
            let low = low.load(ordering: .relaxed)
            let high = high.load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            if before & 1 == 0 && version.load(ordering: .relaxed) == before {
                return Duration(totalAttoseconds: Int128(truncatingIfNeeded: high) &<< 64 | Int128(low))
            }
        }
    }
}
