/// The second floor (issue 25): scenario 1's work in a radix heap, the
/// structure Tick's own large queue uses, written as tightly as we can: a
/// monotone priority queue of 64-bit keys (the frame time in the high 32
/// bits, the sequence number in the low 32, so equal times keep the order
/// scheduled) in 65 buckets, bucket *i* holding the keys whose highest bit
/// that differs from the last key removed is bit *i − 1* (bucket 0: equal to
/// it, which only the key being removed can be, since keys are unique).
///
/// Each bucket is a bare buffer of keys that only grows (no copy-on-write
/// uniqueness check, no bounds check, no per-append growth test beyond one
/// comparison), and the closures live in a side buffer indexed by sequence
/// number, moved out (released) as they run. Removing the smallest key when
/// no key equals the last one empties the lowest non-empty bucket: its
/// smallest key is the one removed (and the new last key), the others go to
/// lower buckets. Like ``FloorQueue``: no lock, no cancellation, no
/// attosecond exactness, no misuse checks, times and counts below 2³². Used
/// in place (a struct that owns its buffers until ``deallocate()``), so no
/// runtime exclusivity checks and no reference counting of its storage.
struct RadixFloorQueue {
    /// A closure kept in its natural representation (see ``FloorQueue/Action``).
    /// It is handed the queue, so that it can schedule more work.
    struct Action {
        let run: (inout RadixFloorQueue) -> Void
    }

    /// One bucket's keys, in a bare buffer allocated on the first append.
    private struct Bucket {
        var keys: UnsafeMutablePointer<UInt64>?
        var count: Int
        var capacity: Int
    }

    private static let bucketCount = 65
    private let buckets = UnsafeMutablePointer<Bucket>.allocate(capacity: bucketCount)
    /// Bit *i* is set when bucket *i* is not empty (bucket 64: `filledHigh`).
    private var filled: UInt64 = 0
    private var filledHigh = false
    private var last: UInt64 = 0
    private var actions: UnsafeMutablePointer<Action>
    private var actionCapacity: Int
    private var scheduled = 0
    private(set) var now: Int64 = 0

    init(capacity: Int = 8) {
        actionCapacity = max(capacity, 8)
        actions = .allocate(capacity: actionCapacity)
        buckets.initialize(repeating: Bucket(keys: nil, count: 0, capacity: 0), count: RadixFloorQueue.bucketCount)
    }

    /// Frees the buffers (and any closure not run).
    func deallocate() {
        for index in 0..<RadixFloorQueue.bucketCount {
            let bucket = buckets[index]
            guard let keys = bucket.keys else { continue }
            for position in 0..<bucket.count {
                (actions + Int(keys[position] & 0xFFFF_FFFF)).deinitialize(count: 1)
            }
            keys.deallocate()
        }
        buckets.deallocate()
        actions.deallocate()
    }

    @inline(__always)
    private static func bucket(of key: UInt64, last: UInt64) -> Int {
        64 &- (key ^ last).leadingZeroBitCount
    }

    @inline(__always)
    private mutating func append(_ key: UInt64, to index: Int) {
        let bucket = buckets + index
        let count = bucket.pointee.count
        if count == bucket.pointee.capacity { grow(bucket) }
        bucket.pointee.keys.unsafelyUnwrapped[count] = key
        bucket.pointee.count = count &+ 1
        if index < 64 { filled |= 1 &<< UInt64(index) } else { filledHigh = true }
    }

    @inline(never)
    private func grow(_ bucket: UnsafeMutablePointer<Bucket>) {
        let capacity = max(bucket.pointee.capacity &* 2, 4)
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        if let keys = bucket.pointee.keys {
            grown.moveInitialize(from: keys, count: bucket.pointee.count)
            keys.deallocate()
        }
        bucket.pointee.keys = grown
        bucket.pointee.capacity = capacity
    }

    @inline(never)
    private mutating func growActions() {
        let capacity = actionCapacity &* 2
        let grown = UnsafeMutablePointer<Action>.allocate(capacity: capacity)
        grown.moveInitialize(from: actions, count: scheduled)
        actions.deallocate()
        actions = grown
        actionCapacity = capacity
    }

    @inline(__always)
    mutating func schedule(at time: Int64, _ action: @escaping (inout RadixFloorQueue) -> Void) {
        let sequence = scheduled
        if sequence == actionCapacity { growActions() }
        (actions + sequence).initialize(to: Action(run: action))
        scheduled = sequence &+ 1
        let key = UInt64(max(time, now)) &<< 32 | UInt64(sequence)
        append(key, to: RadixFloorQueue.bucket(of: key, last: last))
    }

    /// Removes the smallest key.
    @inline(__always)
    private mutating func popFirst() -> UInt64? {
        if filled & 1 != 0 {
            // The only key equal to the last one removed: the smallest.
            buckets[0].count = 0
            filled &= ~1
            return buckets[0].keys.unsafelyUnwrapped[0]
        }
        let bucket: Int
        if filled != 0 {
            bucket = filled.trailingZeroBitCount
        } else if filledHigh {
            bucket = 64
        } else {
            return nil
        }
        // Empty the lowest non-empty bucket: its smallest key is removed, the
        // others go to lower buckets.
        let bucketKeys = buckets[bucket].keys.unsafelyUnwrapped
        let count = buckets[bucket].count
        buckets[bucket].count = 0
        if bucket < 64 { filled &= ~(1 &<< UInt64(bucket)) } else { filledHigh = false }
        var smallest = bucketKeys[0]
        var index = 1
        while index < count {
            let key = bucketKeys[index]
            if key < smallest { smallest = key }
            index &+= 1
        }
        last = smallest
        index = 0
        while index < count {
            let key = bucketKeys[index]
            if key != smallest { append(key, to: RadixFloorQueue.bucket(of: key, last: smallest)) }
            index &+= 1
        }
        return smallest
    }

    /// Runs everything, in (time, sequence) order.
    mutating func run() {
        while let key = popFirst() {
            now = Int64(key &>> 32)
            let action = (actions + Int(key & 0xFFFF_FFFF)).move()
            action.run(&self)
        }
    }
}
