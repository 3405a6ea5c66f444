/// The lightweight, closure-based value API (a rebuild of LightweightObservable).
///
/// It is much smaller than the Rx part of Tick: a value that can be read and
/// observed with `(newValue, oldValue)` closures. It never completes and never
/// fails. Three types:
///
/// | LightweightObservable | Tick                  | What it is                                        |
/// |-----------------------|-----------------------|---------------------------------------------------|
/// | `Observable<T>`       | ``ObservableValue``   | read-only view: subscribe only                    |
/// | `Variable<T>`         | ``Variable``          | always has a value; subscribers get it at once    |
/// | `PublishSubject<T>`   | ``PublishVariable``   | starts empty; subscribers get only later updates  |
///
/// (Tick's `Observable` and `PublishSubject` are the Rx types, hence the new names.)
///
/// ## Differences from the original (deliberate improvements)
/// - Observers are notified **in subscription order** (the original kept them
///   in a dictionary, so the order was unspecified).
/// - It is **thread-safe**: values may be set and observers added or removed
///   from any thread. Notifications are delivered one round at a time, in the
///   order the values were set, and never while a lock is held. A value set
///   from inside an observer is delivered to everyone after the current round
///   (the original delivered it recursively, in the middle of the round, so
///   later observers could receive the older value last).
/// - An observer disposed during a round does not receive the rest of it.
/// - One race remains, by design: the first call of a ``Variable``
///   subscription is made at once on the subscribing thread, so if another
///   thread writes while `subscribe` is running, the new observer may receive
///   that write just before its first call.
/// - A subscription lasts until its disposable is disposed (directly or via a
///   ``DisposeBag``), as everywhere in Tick. In the original a subscription
///   also ended when its `Disposable` object was deallocated.
public class ObservableValue<Value> {
    /// An observer: receives the new value and the previous one (`nil` on the
    /// first call of a ``Variable`` subscription and on the first update of a
    /// ``PublishVariable``).
    public typealias Observer = (_ newValue: Value, _ oldValue: Value?) -> Void

    private final class Entry {
        let observer: Observer
        var isActive = true
        init(_ observer: @escaping Observer) { self.observer = observer }
    }

    private struct Round {
        let newValue: Value
        let oldValue: Value?
        let observers: [Entry]
    }

    private let lock = Lock()
    // Guarded by `lock`:
    private var stored: Value?
    private var entries: [Entry] = []
    private var rounds = FIFOQueue<Round>()
    private var delivering = false
    private let callsAtOnce: Bool

    init(stored: Value?, callsAtOnce: Bool) {
        self.stored = stored
        self.callsAtOnce = callsAtOnce
    }

    /// The stored value (`nil` only for a ``PublishVariable`` never updated).
    var storedValue: Value? { lock.withLock { stored } }

    /// Stores `newValue` and notifies every current observer with
    /// `(newValue, previous stored value)`.
    func store(_ newValue: Value) {
        lock.withLock {
            let round = Round(newValue: newValue, oldValue: stored, observers: entries)
            stored = newValue
            rounds.append(round)
        }
        deliver()
    }

    /// Delivers queued rounds until none is left. Only one thread delivers at
    /// a time; a value stored meanwhile (even from inside an observer) is
    /// delivered by the running loop, after the current round.
    private func deliver() {
        lock.lock()
        guard !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        while let round = rounds.first {
            rounds.removeFirst()
            lock.unlock()
            for entry in round.observers where lock.withLock({ entry.isActive }) {
                entry.observer(round.newValue, round.oldValue)
            }
            lock.lock()
        }
        delivering = false
        lock.unlock()
    }

    /// This value as a read-only ``ObservableValue`` (to expose from a view
    /// model while keeping the ``Variable`` private).
    public var asObservableValue: ObservableValue<Value> { self }

    /// Calls `observer` with `(newValue, oldValue)` on every later update.
    ///
    /// For a ``Variable`` the observer is also called at once, before this
    /// method returns, with `(current value, nil)`. It is registered *before*
    /// that first call, so a value set inside the first call reaches it too.
    /// A ``PublishVariable`` makes no first call.
    ///
    /// - Returns: a disposable that ends the subscription.
    public func subscribe(_ observer: @escaping Observer) -> any Disposable {
        let entry = Entry(observer)
        let current: Value? = lock.withLock {
            entries.append(entry)
            return callsAtOnce ? stored : nil
        }
        if let current { observer(current, nil) }
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.lock.withLock {
                entry.isActive = false
                self.entries.removeAll { $0 === entry }
            }
        }
    }

    /// The number of live subscriptions.
    public var observerCount: Int { lock.withLock { entries.count } }
}

extension ObservableValue where Value: Equatable {
    /// Decides whether an update reaches the observer: receives the new value
    /// and the previous *stored* value.
    public typealias Filter = (_ newValue: Value, _ oldValue: Value?) -> Bool

    /// Calls `observer` only for the updates that pass `filter`.
    ///
    /// `filter` sees the raw previous value; the observer's `oldValue` is the
    /// last value that *passed* the filter (`nil` until one has), as in the
    /// original. For a ``Variable`` the first call `(current, nil)` goes
    /// through the filter too.
    public func subscribe(filter: @escaping Filter, observer: @escaping Observer) -> any Disposable {
        var lastPassed: Value?
        return subscribe { newValue, oldValue in
            guard filter(newValue, oldValue) else { return }
            observer(newValue, lastPassed)
            lastPassed = newValue
        }
    }

    /// Calls `observer` only when the value differs from the previous one (the
    /// first value always passes).
    public func subscribeDistinct(_ observer: @escaping Observer) -> any Disposable {
        subscribe(filter: { $0 != $1 }, observer: observer)
    }
}

/// A value that is always set: read and write it with ``value``; every write
/// notifies every observer, even when the new value equals the old one.
///
/// ```swift
/// let name = Variable("Ann")
/// let subscription = name.subscribe { new, old in print(new, old ?? "-") }  // "Ann -"
/// name.value = "Bob"                                                       // "Bob Ann"
/// subscription.dispose()
/// ```
///
/// See ``ObservableValue`` for the rules and the differences from
/// LightweightObservable.
public final class Variable<Value>: ObservableValue<Value> {
    /// A variable holding `value`.
    public init(_ value: Value) {
        super.init(stored: value, callsAtOnce: true)
    }

    /// The current value. Setting it notifies every observer with
    /// `(new value, previous value)`.
    public var value: Value {
        // A variable always holds a value: it starts with one and every write
        // stores one.
        get { storedValue.unsafelyUnwrapped }
        set { store(newValue) }
    }
}

/// A value that starts empty and is changed with ``update(_:)``. Observers
/// get only the updates made after they subscribed (no call at once).
///
/// This is LightweightObservable's `PublishSubject` (renamed: Tick's
/// `PublishSubject` is the Rx subject).
public final class PublishVariable<Value>: ObservableValue<Value> {
    /// An empty publish variable.
    public init() {
        super.init(stored: nil, callsAtOnce: false)
    }

    /// The latest value, or `nil` before the first ``update(_:)``.
    public var value: Value? { storedValue }

    /// Stores `value`, then notifies every observer with `(value, previous
    /// value)` (`nil` on the first update).
    public func update(_ value: Value) { store(value) }
}

// @unchecked: the value and the observer list are guarded by `lock`, and
// observers are called outside it. Sendable only when the values are, since a
// value set on one thread is read and delivered on others. (Each subclass
// restates the conformance, as Swift requires.)
extension ObservableValue: @unchecked Sendable where Value: Sendable {}
extension Variable: @unchecked Sendable where Value: Sendable {}
extension PublishVariable: @unchecked Sendable where Value: Sendable {}
