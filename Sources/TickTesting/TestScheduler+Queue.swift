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

    struct State {
        var heap = SchedulerHeap<Work>()
        var sequence: UInt64 = 0
        var current: Duration
        /// One bit per sequence number ever scheduled: set once the entry ran or
        /// was cancelled. Entries leave the heap in strictly increasing (due,
        /// sequence) order, so this is all cancellation needs to know, and the
        /// disposable it hands out can be two words with no allocation.
        var done: [UInt64] = []
        /// Cancelled entries still sitting in the heap.
        var cancelledInHeap = 0
        var isAdvancing = false
        /// The thread running the current `advance`/`run` (to tell a second
        /// thread's call from a call made inside an action).
        var advancingThread: pthread_t?
        var stopRequested = false
        var budget: Int

        var pending: Int { heap.count - cancelledInHeap }

        func isDone(_ sequence: UInt64) -> Bool {
            done[Int(sequence >> 6)] & (1 << (sequence & 63)) != 0
        }

        mutating func markDone(_ sequence: UInt64) {
            done[Int(sequence >> 6)] |= 1 << (sequence & 63)
        }

        mutating func enqueue(
            due: Duration, frame: Duration, simulateProcessingDelay: Bool, _ action: @escaping () -> Void
        ) -> UInt64 {
            var due = due
            if due <= current {
                due = simulateProcessingDelay ? current + frame : current
            }
            let key = sequence
            if sequence & 63 == 0 { done.append(0) }
            heap.push(.init(due: due, sequence: sequence, payload: Work(run: action)))
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

        /// When every entry left in the heap is cancelled, takes them all out
        /// (to be released by the caller outside the lock). Cancelled actions
        /// otherwise stay in the heap until the clock passes them, and one that
        /// captures this scheduler (any time operator's sink does) would keep it
        /// alive in a reference cycle if the clock never gets there.
        mutating func takeAllIfAllCancelled() -> SchedulerHeap<Work>? {
            guard cancelledInHeap == heap.count else { return nil }
            cancelledInHeap = 0
            defer { heap = .init() }
            return heap
        }

        /// `true` if an entry that was not cancelled is due at or before `limit`
        /// (any, if nil). Drops cancelled entries found at the front.
        mutating func hasRunnable(notAfter limit: Duration?) -> Bool {
            while limit.map({ heap.firstIsDue(notAfter: $0) }) ?? !heap.isEmpty {
                guard let sequence = heap.first?.sequence, isDone(sequence) else { return true }
                _ = heap.popFirst()
                cancelledInHeap -= 1
            }
            return false
        }

        /// Takes the next entry due at or before `limit` (any, if nil) that was
        /// not cancelled, and moves the clock to its due time.
        mutating func takeNext(notAfter limit: Duration?) -> (() -> Void)? {
            while limit.map({ heap.firstIsDue(notAfter: $0) }) ?? !heap.isEmpty {
                let entry = heap.popFirst().unsafelyUnwrapped
                if isDone(entry.sequence) {
                    cancelledInHeap -= 1
                    continue
                }
                markDone(entry.sequence)
                current = entry.due
                return entry.payload.run
            }
            return nil
        }
    }
}
