import Tick

/// Publishes a component's state changes to its subscribers in exactly the
/// order the component computed them, from any thread, without calling user
/// code while a lock is held.
///
/// The owner computes a new state under its own lock and calls ``enqueue(_:)``
/// *while still holding it* (so the queue order is the state order), then
/// calls ``drain()`` after releasing it. One thread drains at a time; values
/// enqueued meanwhile (from other threads, or from an observer reacting to a
/// value) are delivered by the running drain, after the current one.
///
/// Subscribers get the latest delivered value at once (a `BehaviorSubject`).
final class SerialPublisher<Value>: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`:
    private var queue: [Value] = []
    private var head = 0
    private var draining = false
    private let subject: BehaviorSubject<Value>

    init(initial: Value) {
        subject = BehaviorSubject(value: initial)
    }

    /// Queues `value` for delivery.
    func enqueue(_ value: Value) {
        lock.withLock { queue.append(value) }
    }

    /// Delivers queued values until none is left (or returns at once if
    /// another call is already delivering).
    func drain() {
        lock.lock()
        guard !draining else {
            lock.unlock()
            return
        }
        draining = true
        while head < queue.count {
            let value = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            lock.unlock()
            subject.on(.next(value))
            lock.lock()
        }
        draining = false
        lock.unlock()
    }

    /// The delivered values: the latest at once, then every later one.
    var observable: Observable<Value> { subject.asObservable() }
}
