/// The floor: scenario 1's work (schedule N closures at frame times, then run
/// them all in (time, order scheduled) order) with the tightest structure we
/// can write, for every run to compare Tick with. A 4-ary min-heap of 16-byte
/// keys (a 64-bit frame time and a 64-bit sequence number) and the closures in
/// a separate array indexed by sequence number, so sifting moves 16 bytes and
/// never touches a closure. No lock, no cancellation, no attosecond exactness,
/// no misuse checks: what it leaves out is exactly what Tick pays for. A
/// struct used in place, so no runtime exclusivity checks either.
struct FloorQueue {
    struct Key {
        var time: Int64
        var sequence: UInt64

        @inline(__always)
        static func < (a: Key, b: Key) -> Bool {
            a.time != b.time ? a.time < b.time : a.sequence < b.sequence
        }
    }

    /// A closure kept in its natural representation (stored bare in a generic
    /// array, each one would be wrapped in a reabstraction thunk: an allocation).
    struct Action {
        let run: () -> Void
    }

    private var keys: [Key] = []
    private var actions: [Action?] = []
    private(set) var now: Int64 = 0

    mutating func schedule(at time: Int64, _ action: @escaping () -> Void) {
        let sequence = UInt64(actions.count)
        actions.append(Action(run: action))
        keys.append(Key(time: max(time, now), sequence: sequence))
        keys.withUnsafeMutableBufferPointer { heap in
            var hole = heap.count - 1
            let moving = heap[hole]
            while hole > 0 {
                let parent = (hole - 1) / 4
                guard moving < heap[parent] else { break }
                heap[hole] = heap[parent]
                hole = parent
            }
            heap[hole] = moving
        }
    }

    /// Runs everything, in (time, sequence) order.
    mutating func run() {
        while let key = popFirst() {
            now = key.time
            let index = Int(key.sequence)
            let action = actions[index].unsafelyUnwrapped
            actions[index] = nil
            action.run()
        }
    }

    private mutating func popFirst() -> Key? {
        guard let last = keys.popLast() else { return nil }
        guard !keys.isEmpty else { return last }
        return keys.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            let count = heap.count
            var hole = 0
            while true {
                let first = 4 * hole + 1
                guard first < count else { break }
                var smallest = first
                let end = min(first + 4, count)
                var child = first + 1
                while child < end {
                    if heap[child] < heap[smallest] { smallest = child }
                    child += 1
                }
                guard heap[smallest] < last else { break }
                heap[hole] = heap[smallest]
                hole = smallest
            }
            heap[hole] = last
            return top
        }
    }
}
