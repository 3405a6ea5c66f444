/// A first-in first-out queue with amortized O(1) append and O(1) removeFirst.
///
/// A ring buffer: the `count` elements start at `head` and wrap around the
/// end of a buffer whose capacity is a power of two. Removing never moves the
/// other elements (a queue that stays long, like `delay`'s, would otherwise
/// be shifted down every so often); only growing moves them, in order, to the
/// front of a buffer twice as big.
///
/// Not copyable: every queue lives in one object (an operator's sink, a
/// subject) all its life, so there is no copy to share its buffer and no
/// uniqueness check to make on every change (copy-on-write cost two runtime
/// calls per element through `delay`). The buffer is a ``FIFOStorage``,
/// whose slots are read and written without bounds checks and hold
/// elements, not optionals. Its invariants (kept by every method here and
/// checked by `FIFOQueueTests`):
/// - `capacity` is 0 or a power of two, and `0 <= count <= capacity`;
/// - exactly the `count` slots from `head` (wrapping) are initialized;
/// - only the queue that made the storage refers to it.
@usableFromInline
struct FIFOQueue<Element>: ~Copyable {
    @usableFromInline var storage: FIFOStorage<Element>?

    @inlinable init() {}

    @inlinable var isEmpty: Bool { count == 0 }
    @inlinable var count: Int { storage?.count ?? 0 }

    @inlinable var first: Element? {
        guard let storage, storage.count > 0 else { return nil }
        return storage.elements[storage.head]
    }

    /// A part of the first element, read in place (`first` copies the whole
    /// element to read one field of it).
    @inlinable func first<Part>(_ part: (Element) -> Part) -> Part? {
        guard let storage, storage.count > 0 else { return nil }
        return part(storage.elements[storage.head])
    }

    @inlinable mutating func append(_ element: consuming Element) {
        if storage == nil || storage.unsafelyUnwrapped.isFull { grow() }
        storage.unsafelyUnwrapped.append(element)
    }

    @inlinable @discardableResult
    mutating func removeFirst() -> Element? {
        guard let storage, storage.count > 0 else { return nil }
        return storage.removeFirst()
    }

    @inlinable mutating func removeAll() {
        storage = nil
    }

    /// Replaces the storage (absent or full) by one twice as big (4 at
    /// least), holding the elements in order from slot 0. Out of line: taken
    /// only to grow.
    @inlinable @inline(never)
    mutating func grow() {
        let grown = FIFOStorage<Element>(capacity: Swift.max(4, (storage?.capacity ?? 0) &* 2))
        storage?.moveAll(into: grown)
        storage = grown
    }
}

/// The buffer of a ``FIFOQueue``: `capacity` slots, of which the `count`
/// from `head` (wrapping) are initialized. See ``FIFOQueue`` for the
/// invariants; only a queue that owns it alone changes it.
@usableFromInline
final class FIFOStorage<Element> {
    @usableFromInline let elements: UnsafeMutablePointer<Element>
    @usableFromInline let capacity: Int
    // Changed only by the queue that owns this storage alone (see above), so
    // runtime exclusivity checks are off.
    @usableFromInline @exclusivity(unchecked) var head = 0
    @usableFromInline @exclusivity(unchecked) var count = 0

    @inlinable init(capacity: Int) {
        elements = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        discardAll()
        elements.deallocate()
    }

    @inlinable var isFull: Bool { count == capacity }

    /// Requires `count < capacity`.
    @inlinable func append(_ element: consuming Element) {
        (elements + ((head &+ count) & (capacity &- 1))).initialize(to: element)
        count &+= 1
    }

    /// Requires `count > 0`.
    @inlinable func removeFirst() -> Element {
        let element = (elements + head).move()
        head = (head &+ 1) & (capacity &- 1)
        count &-= 1
        return element
    }

    /// Deinitializes the elements: the storage is left empty.
    @inlinable func discardAll() {
        while count > 0 { _ = removeFirst() }
    }

    /// Moves the elements, in order, to the front of `other` (empty, big
    /// enough); this storage is left empty.
    @inlinable func moveAll(into other: FIFOStorage<Element>) {
        while count > 0 { other.append(removeFirst()) }
    }
}
