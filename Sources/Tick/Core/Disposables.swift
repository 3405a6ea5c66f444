import Synchronization

// The mutable fields of the disposables below are read and written only while
// holding their `lock` (or in `init`/`deinit`), so their runtime exclusivity
// checks are turned off with `@exclusivity(unchecked)`.

/// Something that can release a resource: a subscription, a scheduled action.
///
/// `dispose()` is idempotent: calling it again does nothing. Tick's own
/// disposables are safe to dispose from any thread and from inside the callbacks
/// of the subscription they end.
///
/// A disposable is `Sendable`, so it can be captured by `@Sendable` closures
/// (an `AsyncStream`'s `onTermination`, a task's cancellation handler) and
/// disposed from anywhere (Docs/Concurrency.md).
public protocol Disposable: Sendable {
    /// Releases the resource. Calling it more than once has no further effect.
    func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// `true` once ``Disposable/dispose()`` has been called.
    var isDisposed: Bool { get }
}

/// Factory functions for common disposables.
/// Disposes the disposable stored in `slot` where it is. Called on an
/// existential read from a class's `var`, `dispose()` runs on a copy of it (a
/// value-witness copy and destroy, a retain and a release for a class);
/// through `inout` it runs in place.
@inlinable @inline(__always)
func disposeInPlace(_ slot: inout any Disposable) {
    slot.dispose()
}

public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> any Disposable { NopDisposable() }

    /// A disposable that runs `action` the first time it is disposed.
    public static func create(with action: @escaping () -> Void) -> any Cancelable {
        AnonymousDisposable(action)
    }

    /// A disposable that disposes all of `disposables`, in order.
    public static func create(_ disposables: any Disposable...) -> any Cancelable {
        CompositeDisposable(disposables: disposables)
    }

    /// A disposable that disposes all of `disposables`, in order.
    public static func create(_ disposables: [any Disposable]) -> any Cancelable {
        CompositeDisposable(disposables: disposables)
    }
}

@usableFromInline
struct NopDisposable: Disposable {
    @inlinable init() {}
    @inlinable func dispose() {}
}

/// Runs an action once, on the first ``dispose()``.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    @exclusivity(unchecked) private var action: (() -> Void)?
    private let disposed = Atomic<Bool>(false)

    init(_ action: @escaping () -> Void) { self.action = action }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = lock.withLock { () -> (() -> Void)? in
            defer { self.action = nil }
            return self.action
        }
        action?()
    }
}

/// A flag that records whether it was disposed.
public final class BooleanDisposable: Cancelable, Sendable {
    private let disposed: Atomic<Bool>

    /// A disposable that is not yet disposed (or already disposed, if `isDisposed`).
    public init(isDisposed: Bool = false) { disposed = Atomic(isDisposed) }

    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    public func dispose() { disposed.store(true, ordering: .releasing) }
}

/// A group of disposables disposed together.
///
/// Adding to a composite that is already disposed disposes the new item at once.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    /// Identifies an item added with ``insert(_:)``, to remove it later.
    public struct Key: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private let lock = Lock()
    @exclusivity(unchecked) private var items: [(key: UInt64, disposable: any Disposable)] = []
    @exclusivity(unchecked) private var nextKey: UInt64 = 0
    @exclusivity(unchecked) private var disposed = false

    /// An empty composite.
    public init() {}

    /// A composite holding `disposables`.
    public init(disposables: [any Disposable]) {
        for disposable in disposables {
            items.append((nextKey, disposable))
            nextKey += 1
        }
    }

    /// A composite holding `disposables`.
    public convenience init(_ disposables: any Disposable...) {
        self.init(disposables: disposables)
    }

    public var isDisposed: Bool { lock.withLock { disposed } }

    /// The number of items still held.
    public var count: Int { lock.withLock { items.count } }

    /// Adds `disposable`. Returns `nil` (after disposing it) if this composite
    /// is already disposed.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> Key? {
        let key: UInt64? = lock.withLock {
            guard !disposed else { return nil }
            defer { nextKey += 1 }
            items.append((nextKey, disposable))
            return nextKey
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return Key(value: key)
    }

    /// Removes the item added under `key` and disposes it.
    public func remove(for key: Key) {
        let removed: (any Disposable)? = lock.withLock {
            guard let index = items.firstIndex(where: { $0.key == key.value }) else { return nil }
            return items.remove(at: index).disposable
        }
        removed?.dispose()
    }

    /// Disposes every item, in the order they were added.
    public func dispose() {
        let toDispose: [(key: UInt64, disposable: any Disposable)] = lock.withLock {
            guard !disposed else { return [] }
            disposed = true
            defer { items = [] }
            return items
        }
        for item in toDispose { item.disposable.dispose() }
    }
}

/// Holds one disposable at a time: assigning a new one disposes the previous one.
///
/// After ``dispose()``, any disposable assigned is disposed at once.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    /// The current disposable, `NopDisposable` for none: a plain existential
    /// moves without the generic runtime calls an optional one costs on
    /// every copy and destruction. Guarded by `lock`.
    @exclusivity(unchecked) private var current: any Disposable = NopDisposable()
    @exclusivity(unchecked) private var hasCurrent = false
    @exclusivity(unchecked) private var disposed = false

    /// An empty serial disposable.
    public init() {}

    public var isDisposed: Bool { lock.withLock { disposed } }

    /// The current disposable. Setting it disposes the previous one.
    public var disposable: (any Disposable)? {
        get { lock.withLock { hasCurrent ? current : nil } }
        set {
            // Swapped in and out under the lock (moves, no existential copies);
            // disposed after it.
            var isSome = newValue != nil
            var replaced: any Disposable = newValue ?? NopDisposable()
            lock.lock()
            if !disposed {
                swap(&current, &replaced)
                swap(&hasCurrent, &isSome)
            }
            lock.unlock()
            replaced.dispose()
        }
    }

    public func dispose() {
        var old: any Disposable = NopDisposable()
        lock.lock()
        if !disposed {
            disposed = true
            hasCurrent = false
            swap(&current, &old)
        }
        lock.unlock()
        old.dispose()
    }
}

/// Holds exactly one disposable, assigned once, possibly after it was disposed
/// (then the assigned disposable is disposed at once).
///
/// Assigning a second time is misuse: it is reported through ``Misuse`` and the
/// second disposable is disposed.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock()
    @exclusivity(unchecked) private var current: (any Disposable)?
    @exclusivity(unchecked) private var assigned = false
    @exclusivity(unchecked) private var disposed = false

    /// An unassigned disposable.
    public init() {}

    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Assigns the disposable. See the type's documentation for the rules.
    public func setDisposable(
        _ disposable: any Disposable,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        enum Outcome { case stored, disposeNow, alreadyAssigned }
        let outcome: Outcome = lock.withLock {
            if assigned { return .alreadyAssigned }
            assigned = true
            if disposed { return .disposeNow }
            current = disposable
            return .stored
        }
        switch outcome {
        case .stored: break
        case .disposeNow: disposable.dispose()
        case .alreadyAssigned:
            Misuse.report(
                "SingleAssignmentDisposable was assigned twice; the second disposable was disposed. Use SerialDisposable to replace a disposable.",
                fileID: fileID, filePath: filePath, line: line, column: column)
            disposable.dispose()
        }
    }

    public func dispose() {
        let old: (any Disposable)? = lock.withLock {
            guard !disposed else { return nil }
            disposed = true
            defer { current = nil }
            return current
        }
        old?.dispose()
    }
}

/// Disposes what it holds when it is deinitialized: tie subscriptions to an
/// owner's lifetime with ``Disposable/disposed(by:)``.
///
/// Adding to a bag that was already emptied by ``dispose()`` disposes the new
/// item at once.
public final class DisposeBag: @unchecked Sendable {
    private let lock = Lock()
    @exclusivity(unchecked) private var items: [any Disposable] = []
    @exclusivity(unchecked) private var disposed = false

    /// An empty bag.
    public init() {}

    /// Adds `disposable` to the bag.
    public func insert(_ disposable: any Disposable) {
        let disposeNow = lock.withLock { () -> Bool in
            if disposed { return true }
            items.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes everything in the bag now; later insertions are disposed at once.
    public func dispose() {
        let toDispose: [any Disposable] = lock.withLock {
            disposed = true
            defer { items = [] }
            return items
        }
        for item in toDispose { item.dispose() }
    }

    deinit {
        for item in items { item.dispose() }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, so it is disposed when the bag is.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
