import Synchronization

/// A count of live Tick resources, to prove in tests that nothing leaks.
///
/// A resource is a live subscription (one per operator in a subscribed chain,
/// and one per `subscribe` call) or a pending scheduled item. The count is kept
/// in debug builds only (the `DEBUG` condition, which SwiftPM sets for debug
/// builds); in release builds counting costs nothing and ``total`` is always 0.
///
/// Tests run in parallel, so a process-wide number is rarely what a test wants.
/// ``Scope`` counts only the resources created while it is the current scope
/// (a task-local value); `TickTesting` wraps it as a test trait.
///
/// A task-local value does not reach a `Thread` the test starts, a
/// `DispatchQueue`'s work, or a `Task.detached`: resources created there
/// belong to no scope. `Scope.run(includingOtherThreads:_:)`
/// counts those too, process-wide, while it runs (see its caveat).
public enum Resources {
    /// `true` when this build counts resources (debug builds).
    public static var isCounting: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    static let globalCount = Atomic<Int>(0)

    /// The number of live resources in the whole process (always 0 in release builds).
    public static var total: Int { globalCount.load(ordering: .relaxed) }

    /// A counter of the resources created while it is current.
    ///
    /// ```swift
    /// let scope = Resources.Scope()
    /// scope.run { /* create and dispose subscriptions */ }
    /// assert(scope.live == 0)
    /// ```
    public final class Scope: Sendable {
        let count = Atomic<Int>(0)

        public init() {}

        /// Resources created while this scope was current that are still alive.
        public var live: Int { count.load(ordering: .relaxed) }

        /// Runs `body` with this scope current (for this task and the tasks it creates).
        public func run<R>(_ body: () throws -> R) rethrows -> R {
            try Resources.$current.withValue(self) { try body() }
        }

        /// Runs `body` with this scope current (for this task and the tasks it creates).
        public func run<R>(_ body: () async throws -> R) async rethrows -> R {
            try await Resources.$current.withValue(self) { try await body() }
        }

        /// Runs `body` with this scope current and, with `includingOtherThreads`,
        /// also counts in it every resource created **anywhere in the process
        /// outside any scope** while `body` runs: on a thread `body` starts,
        /// in a `DispatchQueue`'s work, in a `Task.detached`.
        ///
        /// Caveat: "outside any scope" is process-wide, so such resources of
        /// code running in parallel (another test that starts threads) are
        /// counted here too. Use it for tests that do not run in parallel with
        /// such code (a `.serialized` suite holding them all, or a
        /// `--no-parallel` run). Nested calls restore the previous catch-all
        /// scope when they end.
        public func run<R>(includingOtherThreads: Bool, _ body: () throws -> R) rethrows -> R {
            guard includingOtherThreads else { return try run(body) }
            let previous = Resources.replaceUnscoped(with: self)
            defer { _ = Resources.replaceUnscoped(with: previous) }
            return try run(body)
        }

        /// The `async` form of `run(includingOtherThreads:_:)`.
        public func run<R>(includingOtherThreads: Bool, _ body: () async throws -> R) async rethrows -> R {
            guard includingOtherThreads else { return try await run(body) }
            let previous = Resources.replaceUnscoped(with: self)
            defer { _ = Resources.replaceUnscoped(with: previous) }
            return try await run(body)
        }
    }

    /// The scope that new resources are counted in, besides the process-wide total.
    @TaskLocal public static var current: Scope?

    /// The scope of resources created outside any task-local scope (set by
    /// `Scope.run(includingOtherThreads: true, _:)`), usually nil.
    private static let unscoped = Mutex<Scope?>(nil)

    /// Sets the catch-all scope and returns the previous one.
    static func replaceUnscoped(with scope: Scope?) -> Scope? {
        unscoped.withLock { current in
            defer { current = scope }
            return current
        }
    }

    /// The scope a resource created now belongs to: the task-local one, else
    /// the catch-all one.
    static var scopeForNewResource: Scope? {
        if let scope = current { return scope }
        return unscoped.withLock { $0 }
    }

    @usableFromInline
    static func increment(_ scope: Scope?, by n: Int = 1) {
        globalCount.add(n, ordering: .relaxed)
        scope?.count.add(n, ordering: .relaxed)
    }

    @usableFromInline
    static func decrement(_ scope: Scope?, by n: Int = 1) {
        globalCount.subtract(n, ordering: .relaxed)
        scope?.count.subtract(n, ordering: .relaxed)
    }
}

/// Counts one resource from its creation to its destruction (debug builds only).
/// Store one in a class: the class's lifetime is the resource's lifetime.
@usableFromInline
struct ResourceToken: ~Copyable {
    #if DEBUG
    let scope: Resources.Scope?
    init() {
        scope = Resources.scopeForNewResource
        Resources.increment(scope)
    }
    deinit { Resources.decrement(scope) }
    #else
    init() {}
    #endif
}

/// Explicit counting for resources that are not objects (a test scheduler's
/// pending entries): increment when one is created, decrement when it ends.
public struct ResourceCounter: Sendable {
    #if DEBUG
    let scope: Resources.Scope?
    #endif

    /// Captures the current scope.
    public init() {
        #if DEBUG
        scope = Resources.scopeForNewResource
        #endif
    }

    /// One more live resource.
    @inlinable public func increment(by n: Int = 1) {
        #if DEBUG
        Resources.increment(scopeValue, by: n)
        #endif
    }

    /// One fewer live resource.
    @inlinable public func decrement(by n: Int = 1) {
        #if DEBUG
        Resources.decrement(scopeValue, by: n)
        #endif
    }

    @usableFromInline var scopeValue: Resources.Scope? {
        #if DEBUG
        return scope
        #else
        return nil
        #endif
    }
}
