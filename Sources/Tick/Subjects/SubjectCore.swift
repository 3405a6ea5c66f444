import Synchronization

/// What every subject shares: a thread-safe list of observers in subscription
/// order, the terminal event once there is one, and an optional replay buffer.
///
/// User code is never called with the lock held. A new subscriber is first
/// caught up (replayed elements are delivered outside the lock) and registered
/// only once nothing new arrived meanwhile, so it sees every element exactly
/// once and in order.
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
    @usableFromInline typealias Entry = (key: UInt64, observer: AnyObserver<Element>)

    /// Guards every mutable field below (runtime exclusivity checks are off).
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<Entry> = []
    @exclusivity(unchecked) private var nextKey: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var stoppedEvent: Event<Element>?
    @usableFromInline @exclusivity(unchecked) var buffer: RingBuffer<Element>
    /// The number of `next` events ever received.
    @usableFromInline @exclusivity(unchecked) var received: UInt64 = 0
    private let replaysAfterTerminal: Bool

    @usableFromInline
    init(bufferCapacity: Int, initial: Element? = nil, replaysAfterTerminal: Bool) {
        buffer = RingBuffer(capacity: bufferCapacity)
        self.replaysAfterTerminal = replaysAfterTerminal
        if let initial {
            buffer.append(initial)
            received = 1
        }
    }

    @usableFromInline var hasObservers: Bool { lock.withLock { !observers.isEmpty } }
    @usableFromInline var isStopped: Bool { lock.withLock { stoppedEvent != nil } }
    @usableFromInline var latest: (element: Element?, stopped: Event<Element>?) {
        lock.withLock { (buffer.last, stoppedEvent) }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        lock.lock()
        guard stoppedEvent == nil else {
            lock.unlock()
            return
        }
        let snapshot = observers
        switch event {
        case .next(let element):
            if buffer.capacity > 0 { buffer.append(element) }
            received &+= 1
        case .error, .completed:
            stoppedEvent = event
            observers = []
        }
        lock.unlock()
        // Subscripting the immutable snapshot borrows each handler in place;
        // read through a buffer pointer (or a `for … in`), each would be
        // retained and released around its call.
        for index in snapshot.indices { snapshot[index].observer.handler(event) }
    }

    @usableFromInline
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        var delivered: UInt64 = 0
        var first = true
        while true {
            lock.lock()
            if first {
                delivered = received - UInt64(buffer.count)
                first = false
            }
            let pending = buffer.elements(after: delivered, totalReceived: received)
            if let stopped = stoppedEvent {
                lock.unlock()
                if replaysAfterTerminal {
                    for element in pending { observer.on(.next(element)) }
                }
                observer.on(stopped)
                return Disposables.create()
            }
            if pending.isEmpty {
                let key = nextKey
                nextKey &+= 1
                observers.append((key, observer))
                lock.unlock()
                return SubjectSubscription(core: self, key: key)
            }
            delivered = received
            lock.unlock()
            for element in pending { observer.on(.next(element)) }
        }
    }

    fileprivate func unsubscribe(_ key: UInt64) {
        lock.withLock {
            // Keys increase in subscription order, so the list is sorted by key.
            var low = 0
            var high = observers.count
            while low < high {
                let mid = (low + high) / 2
                if observers[mid].key < key { low = mid + 1 } else { high = mid }
            }
            if low < observers.count, observers[low].key == key {
                observers.remove(at: low)
            }
        }
    }
}

private final class SubjectSubscription<Element>: Disposable, @unchecked Sendable {
    private let disposed = Atomic<Bool>(false)
    private let core: SubjectCore<Element>
    private let key: UInt64
    private var token: ResourceToken? = ResourceToken()

    init(core: SubjectCore<Element>, key: UInt64) {
        self.core = core
        self.key = key
        token?.name(type(of: self))
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.unsubscribe(key)
        token = nil
    }
}

/// A fixed-capacity FIFO that drops its oldest element when full. Capacity 0
/// stores nothing; `Int.max` is unbounded.
@usableFromInline
struct RingBuffer<Element> {
    @usableFromInline let capacity: Int
    @usableFromInline var storage: ContiguousArray<Element> = []
    @usableFromInline var head = 0

    @usableFromInline init(capacity: Int) { self.capacity = max(0, capacity) }

    @usableFromInline var count: Int { storage.count }
    @usableFromInline var last: Element? {
        guard !storage.isEmpty else { return nil }
        return storage[(head + storage.count - 1) % storage.count]
    }

    @inlinable
    mutating func append(_ element: Element) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
        }
    }

    /// The buffered elements whose index (counting every element ever
    /// received) is at least `start`, oldest first.
    @usableFromInline
    func elements(after start: UInt64, totalReceived: UInt64) -> [Element] {
        let firstIndex = totalReceived - UInt64(storage.count)
        let skip = start > firstIndex ? Int(start - firstIndex) : 0
        guard skip < storage.count else { return [] }
        var result: [Element] = []
        result.reserveCapacity(storage.count - skip)
        for offset in skip..<storage.count {
            result.append(storage[(head + offset) % storage.count])
        }
        return result
    }
}
