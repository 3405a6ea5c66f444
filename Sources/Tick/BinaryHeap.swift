/// A binary min-heap of scheduled entries ordered by (due time, sequence number).
///
/// Used by every Tick scheduler that keeps its own queue. The sequence number
/// makes the order total and stable: entries due at the same time come out in
/// the order they were pushed. Push and pop are O(log n); the entries live
/// inline in one contiguous array.
package struct BinaryHeap<Payload> {
    package struct Entry {
        package var due: Duration
        package var sequence: UInt64
        package var payload: Payload

        @inline(__always)
        package init(due: Duration, sequence: UInt64, payload: Payload) {
            self.due = due
            self.sequence = sequence
            self.payload = payload
        }

        @inline(__always)
        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            a.due < b.due || (a.due == b.due && a.sequence < b.sequence)
        }
    }

    package private(set) var storage: ContiguousArray<Entry> = []

    package init() {}

    package var count: Int { storage.count }
    package var isEmpty: Bool { storage.isEmpty }
    package var first: Entry? { storage.first }

    package mutating func reserveCapacity(_ n: Int) { storage.reserveCapacity(n) }

    package mutating func push(_ entry: Entry) {
        storage.append(entry)
        storage.withUnsafeMutableBufferPointer { buffer in
            var child = buffer.count - 1
            let moving = buffer[child]
            while child > 0 {
                let parent = (child - 1) / 2
                guard Entry.precedes(moving, buffer[parent]) else { break }
                buffer[child] = buffer[parent]
                child = parent
            }
            buffer[child] = moving
        }
    }

    package mutating func popFirst() -> Entry? {
        guard !storage.isEmpty else { return nil }
        let last = storage.removeLast()
        guard !storage.isEmpty else { return last }
        return storage.withUnsafeMutableBufferPointer { buffer in
            let top = buffer[0]
            let count = buffer.count
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < count else { break }
                let right = left + 1
                let smaller = (right < count && Entry.precedes(buffer[right], buffer[left])) ? right : left
                guard Entry.precedes(buffer[smaller], last) else { break }
                buffer[parent] = buffer[smaller]
                parent = smaller
            }
            buffer[parent] = last
            return top
        }
    }

    package mutating func removeAll() { storage.removeAll() }
}
