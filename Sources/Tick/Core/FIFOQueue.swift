/// A first-in first-out queue with amortized O(1) append and O(1) removeFirst.
///
/// A ring buffer: the `count` elements start at `head` and wrap around the
/// end of a buffer whose capacity is a power of two. Removing never moves the
/// other elements (a queue that stays long, like `delay`'s, would otherwise
/// be shifted down every so often); only growing moves them, in order, to the
/// front of a buffer twice as big.
///
/// A value type with copy-on-write storage: a copy shares the buffer until
/// one of them changes it. The buffer is a ``FIFOStorage``, whose slots are
/// read and written without bounds checks and hold elements, not optionals.
/// Its invariants (kept by every method here and checked by
/// `FIFOQueueTests`):
/// - `capacity` is 0 or a power of two, and `0 <= count <= capacity`;
/// - exactly the `count` slots from `head` (wrapping) are initialized;
/// - the storage is changed only through a queue that holds the only
///   reference to it (`isKnownUniquelyReferenced`), so no other queue sees
///   a slot change under it.
@usableFromInline
struct FIFOQueue<Element> {
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
        if !isKnownUniquelyReferenced(&storage) || storage.unsafelyUnwrapped.isFull {
            reallocate(minimumCapacity: count &+ 1)
        }
        storage.unsafelyUnwrapped.append(element)
    }

    @inlinable @discardableResult
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        if !isKnownUniquelyReferenced(&storage) { reallocate(minimumCapacity: count) }
        return storage.unsafelyUnwrapped.removeFirst()
    }

    @inlinable mutating func removeAll() {
        storage = nil
    }

    /// Replaces the storage by one of at least `minimumCapacity` (4 at
    /// least, doubling), holding copies of the elements in order from slot 0.
    /// Taken when the storage is absent, shared or full: out of line.
    @inlinable @inline(never)
    mutating func reallocate(minimumCapacity: Int) {
        // Asked before `grown(from:)` holds a second reference.
        let unique = isKnownUniquelyReferenced(&storage)
        storage = FIFOStorage.grown(from: storage, minimumCapacity: minimumCapacity, unique: unique)
    }
}

/// A ``FIFOQueue`` that cannot be copied, for a queue that lives in one
/// object all its life (an operator's sink): with no copy to share its
/// storage, it skips the uniqueness check that `FIFOQueue` makes on every
/// change (two runtime calls per element through `delay`).
@usableFromInline
struct OwnedFIFOQueue<Element>: ~Copyable {
    @usableFromInline var storage: FIFOStorage<Element>?

    @inlinable init() {}

    /// A part of the first element, read in place.
    @inlinable func first<Part>(_ part: (Element) -> Part) -> Part? {
        guard let storage, storage.count > 0 else { return nil }
        return part(storage.elements[storage.head])
    }

    @inlinable mutating func append(_ element: consuming Element) {
        if storage == nil || storage.unsafelyUnwrapped.isFull {
            storage = FIFOStorage.grown(from: storage, minimumCapacity: (storage?.count ?? 0) &+ 1, unique: true)
        }
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

    /// A storage of at least `minimumCapacity` slots (4 at least, doubling
    /// from `old`'s), holding `old`'s elements in order from slot 0: moved
    /// out of `old` when the caller holds the only reference to it
    /// (`unique`), copied otherwise. Out of line: taken only to grow.
    @inlinable @inline(never)
    static func grown(from old: FIFOStorage?, minimumCapacity: Int, unique: Bool) -> FIFOStorage {
        var capacity = Swift.max(4, old?.capacity ?? 0)
        while capacity < minimumCapacity { capacity &*= 2 }
        let grown = FIFOStorage(capacity: capacity)
        if let old {
            if unique {
                old.moveAll(into: grown)
            } else {
                old.copyAll(into: grown)
            }
        }
        return grown
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

    /// Copies the elements, in order, to the front of `other` (empty, big
    /// enough); this storage is unchanged.
    @inlinable func copyAll(into other: FIFOStorage<Element>) {
        for offset in 0..<count {
            other.append(elements[(head &+ offset) & (capacity &- 1)])
        }
    }
}
