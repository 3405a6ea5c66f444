/// The second floor (issue 25): scenario 1's work in a radix heap, the
/// structure Tick's own large queue uses, written as tightly as we can: a
/// monotone priority queue of 64-bit keys (the frame time in the high 32
/// bits, the sequence number in the low 32, so equal times keep the order
/// scheduled) in 65 buckets, bucket *i* holding the keys whose highest bit
/// that differs from the last key removed is bit *i − 1* (bucket 0: equal to
/// it). The closures live in a side array indexed by sequence number. Like
/// ``FloorQueue``: no lock, no cancellation, no attosecond exactness, no
/// misuse checks, times and counts below 2³². Used in place (a struct), so no
/// runtime exclusivity checks.
struct RadixFloorQueue {
    /// A closure kept in its natural representation (see ``FloorQueue/Action``).
    struct Action {
        let run: () -> Void
    }

    private var buckets = [[UInt64]](repeating: [], count: 65)
    /// Bit *i* is set when bucket *i* is not empty.
    private var filled: UInt128 = 0
    private var last: UInt64 = 0
    private var actions: [Action?] = []
    private(set) var now: Int64 = 0
    private(set) var count = 0

    @inline(__always)
    private static func bucket(of key: UInt64, last: UInt64) -> Int {
        let difference = key ^ last
        return difference == 0 ? 0 : 64 - difference.leadingZeroBitCount
    }

    mutating func schedule(at time: Int64, _ action: @escaping () -> Void) {
        let sequence = UInt64(actions.count)
        actions.append(Action(run: action))
        let key = UInt64(max(time, now)) << 32 | sequence
        let b = RadixFloorQueue.bucket(of: key, last: last)
        buckets[b].append(key)
        filled |= 1 << UInt128(b)
        count += 1
    }

    /// Removes the smallest key.
    @inline(__always)
    private mutating func popFirst() -> UInt64? {
        guard filled != 0 else { return nil }
        if filled & 1 == 0 {
            // Refill bucket 0: the lowest non-empty bucket's smallest key
            // becomes `last`, and its keys move to lower buckets.
            let b = filled.trailingZeroBitCount
            var keys: [UInt64] = []
            swap(&keys, &buckets[b])
            filled &= ~(1 << UInt128(b))
            var smallest = keys[0]
            for key in keys where key < smallest { smallest = key }
            last = smallest
            for key in keys {
                let target = RadixFloorQueue.bucket(of: key, last: smallest)
                buckets[target].append(key)
                filled |= 1 << UInt128(target)
            }
            // The emptied bucket keeps its storage.
            keys.removeAll(keepingCapacity: true)
            swap(&keys, &buckets[b])
        }
        let key = buckets[0].removeLast()
        if buckets[0].isEmpty { filled &= ~1 }
        count -= 1
        return key
    }

    /// Runs everything, in (time, sequence) order.
    mutating func run() {
        while let key = popFirst() {
            now = Int64(key >> 32)
            let index = Int(key & 0xFFFF_FFFF)
            let action = actions[index].unsafelyUnwrapped
            actions[index] = nil
            action.run()
        }
    }
}
