/// A first-in first-out queue with amortized O(1) append and O(1) removeFirst.
///
/// A ring buffer: the `count` elements start at `head` and wrap around the
/// end of `storage`, whose size is zero or a power of two. Slots not in use
/// hold `nil`. Removing never moves the other elements (a queue that stays
/// long, like `delay`'s, would otherwise be shifted down every so often);
/// only growing copies them, in order, to the front of a buffer twice as big.
@usableFromInline
struct FIFOQueue<Element> {
    @usableFromInline var storage: ContiguousArray<Element?> = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { count == 0 }
    @inlinable var first: Element? { count == 0 ? nil : storage[head] }

    /// A part of the first element, read in place (`first` copies the whole
    /// element, an event included, to read one field of it).
    @inlinable func first<Part>(_ part: (Element) -> Part) -> Part? {
        guard count > 0 else { return nil }
        return storage.withUnsafeBufferPointer { part($0[head].unsafelyUnwrapped) }
    }

    @inlinable mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head &+ count) & (storage.count &- 1)] = element
        count &+= 1
    }

    /// Doubles the capacity (at least 4), the elements moved to the front.
    @inlinable mutating func grow() {
        let oldCapacity = storage.count
        let newCapacity = Swift.max(4, oldCapacity &* 2)
        var grown = ContiguousArray<Element?>()
        grown.reserveCapacity(newCapacity)
        for offset in 0..<count {
            grown.append(storage[(head &+ offset) & (oldCapacity &- 1)].take())
        }
        while grown.count < newCapacity { grown.append(nil) }
        storage = grown
        head = 0
    }

    @inlinable @discardableResult
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head = (head &+ 1) & (storage.count &- 1)
        count &-= 1
        return element
    }

    @inlinable mutating func removeAll() {
        storage.removeAll()
        head = 0
        count = 0
    }
}
