/// A min-heap of scheduled entries ordered by (due time, sequence number).
///
/// Used by every Tick scheduler that keeps its own queue. The sequence number
/// makes the order total and stable: entries due at the same time come out in
/// the order they were pushed. Push and pop are O(log n); the entries live
/// inline in one contiguous array.
///
/// Each node has four children rather than two (a 4-ary heap): half as many
/// levels, and a node's children are adjacent in memory, so a pop from a
/// large queue touches far fewer cache lines. Measured with
/// `tick-benchmarks scaling`.
@_spi(TickInternals) @frozen public struct SchedulerHeap<Payload> {
    @frozen public struct Entry {
        /// The due time as attoseconds, split in two words so comparisons
        /// inline (`Duration`'s own `<` is an opaque call).
        public var dueHigh: Int64
        public var dueLow: UInt64
        public var sequence: UInt64
        public var payload: Payload

        @inlinable @inline(__always)
        public init(due: Duration, sequence: UInt64, payload: Payload) {
            (dueHigh, dueLow) = Entry.split(due)
            self.sequence = sequence
            self.payload = payload
        }

        /// The due time.
        @inlinable public var due: Duration {
            Duration(totalAttoseconds: Int128(dueHigh) << 64 | Int128(dueLow))
        }

        @inlinable @inline(__always)
        static func split(_ due: Duration) -> (Int64, UInt64) {
            let attos = due.totalAttoseconds
            return (Int64(truncatingIfNeeded: attos >> 64), UInt64(truncatingIfNeeded: attos))
        }

        /// `true` if this entry is due strictly before `other`'s due time or at
        /// the same time with a smaller sequence number.
        @inlinable @inline(__always)
        func isBefore(high: Int64, low: UInt64, sequence: UInt64) -> Bool {
            if dueHigh != high { return dueHigh < high }
            if dueLow != low { return dueLow < low }
            return self.sequence < sequence
        }

    }

    public var storage: ContiguousArray<Entry> = []

    @inlinable public init() {}

    @inlinable public var count: Int { storage.count }
    @inlinable public var isEmpty: Bool { storage.isEmpty }
    @inlinable public var first: Entry? { storage.first }

    /// `true` if the first entry is due at or before `limit`.
    @inlinable public func firstIsDue(notAfter limit: Duration) -> Bool {
        guard !storage.isEmpty else { return false }
        let (high, low) = Entry.split(limit)
        return storage.withUnsafeBufferPointer { buffer in
            let first = buffer.baseAddress.unsafelyUnwrapped
            return first.pointee.dueHigh < high || (first.pointee.dueHigh == high && first.pointee.dueLow <= low)
        }
    }

    @inlinable @inline(__always)
    static func before(_ a: UnsafePointer<Entry>, _ b: UnsafePointer<Entry>) -> Bool {
        a.pointee.isBefore(high: b.pointee.dueHigh, low: b.pointee.dueLow, sequence: b.pointee.sequence)
    }

    @inlinable
    public mutating func push(_ entry: Entry) {
        storage.append(entry)
        storage.withUnsafeMutableBufferPointer { buffer in
            // Sift up by moving parents down into a hole; no copies, so no
            // reference counting on the payloads.
            let base = buffer.baseAddress.unsafelyUnwrapped
            var hole = buffer.count - 1
            guard hole > 0 else { return }
            var moving = (base + hole).move()
            while hole > 0 {
                let parent = (hole - 1) / 4
                let parentPointer = base + parent
                guard Self.before(&moving, parentPointer) else { break }
                (base + hole).moveInitialize(from: parentPointer, count: 1)
                hole = parent
            }
            (base + hole).initialize(to: moving)
        }
    }

    @inlinable
    public mutating func popFirst() -> Entry? {
        guard storage.count > 1 else { return storage.popLast() }
        storage.withUnsafeMutableBufferPointer { buffer in
            // Sift the last entry down from the root through a hole, then park
            // the old root in the last slot for `removeLast` to hand back.
            // Every step is a move: no copies, so no reference counting.
            let base = buffer.baseAddress.unsafelyUnwrapped
            let count = buffer.count - 1
            let lastPointer = base + count
            let (high, low, sequence) = (lastPointer.pointee.dueHigh, lastPointer.pointee.dueLow, lastPointer.pointee.sequence)
            let top = base.move()
            var hole = 0
            while true {
                // The smallest of up to four children, which sit side by side.
                let first = 4 * hole + 1
                guard first < count else { break }
                var smallest = first
                var child = first + 1
                let end = min(first + 4, count)
                while child < end {
                    if Self.before(base + child, base + smallest) { smallest = child }
                    child += 1
                }
                let smallestPointer = base + smallest
                guard smallestPointer.pointee.isBefore(high: high, low: low, sequence: sequence) else { break }
                (base + hole).moveInitialize(from: smallestPointer, count: 1)
                hole = smallest
            }
            (base + hole).moveInitialize(from: lastPointer, count: 1)
            lastPointer.initialize(to: top)
        }
        return storage.removeLast()
    }

}
