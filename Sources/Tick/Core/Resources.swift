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
        /// What each live resource is and where it was made: kept only by a
        /// scope made with `recordingDetails: true` (debug builds).
        let ledger: Ledger?

        /// A scope that counts its live resources (see ``live``).
        public init() {
            ledger = nil
            Resources.liveScopes.add(1, ordering: .relaxed)
        }

        /// A scope that, with `recordingDetails`, also records what each of
        /// its live resources is and where it was made (``liveResources``).
        /// Recording costs a lock and a table entry per resource, in debug
        /// builds only; the `.checksResourceLeaks` trait records.
        public init(recordingDetails: Bool) {
            #if DEBUG
            ledger = recordingDetails ? Ledger() : nil
            #else
            ledger = nil
            #endif
            Resources.liveScopes.add(1, ordering: .relaxed)
        }

        deinit { Resources.liveScopes.subtract(1, ordering: .relaxed) }

        /// Resources created while this scope was current that are still alive.
        public var live: Int { count.load(ordering: .relaxed) }

        /// The live resources of a recording scope, oldest first; empty for
        /// a scope that does not record (and in release builds).
        public var liveResources: [LiveResource] { ledger?.snapshot() ?? [] }

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

    /// The number of ``Scope``s alive in the process.
    @usableFromInline static let liveScopes = Atomic<Int>(0)

    /// ``current``, without reading the task-local value when no scope is
    /// alive in the process (then none can be current): a task-local read
    /// costs about 150 instructions, and most processes (and every test
    /// without the leak trait) make no scope.
    ///
    /// Why a relaxed load is enough: a scope that is current was counted
    /// (its initializer's increment) before it was made current, which is
    /// before this read in the same task or in the task that made this one;
    /// and it is not released (its deinit's decrement) while it is current.
    /// So the load sees that increment or a later value, all of which count
    /// this scope until its decrement.
    @inlinable package static var currentIfAnyAlive: Scope? {
        liveScopes.load(ordering: .relaxed) == 0 ? nil : current
    }

    /// Where the resources made now are made, for a recording scope's
    /// ledger: the line of the user's `subscribe` that is running, set only
    /// while a recording scope is current.
    @TaskLocal static var site: LiveResource.Site?

    /// Runs `body` with `fileID:line` as the place its new resources are
    /// made, if the current scope records details and no outer call set one
    /// (so the user's line wins over Tick's own calls inside it). Called by
    /// the `subscribe` methods that take the caller's line.
    public static func recordingSite<R>(fileID: StaticString, line: UInt, _ body: () throws -> R) rethrows -> R {
        #if DEBUG
        if current?.ledger != nil, site == nil {
            return try $site.withValue(LiveResource.Site(fileID: fileID, line: line), operation: body)
        }
        #endif
        return try body()
    }

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

/// One live resource of a recording ``Resources/Scope``: what it is and
/// where it was made.
public struct LiveResource: Sendable, CustomStringConvertible {
    /// A source line: where a resource was made.
    public struct Site: Sendable, CustomStringConvertible {
        /// The file, as `#fileID` writes it (`Module/File.swift`).
        public let fileID: String
        /// The line.
        public let line: UInt

        init(fileID: StaticString, line: UInt) {
            self.fileID = "\(fileID)"
            self.line = line
        }

        /// `Module/File.swift:line`.
        public var description: String { "\(fileID):\(line)" }
    }

    /// What the resource is: a subscription (named by the operator's type,
    /// such as `MapSink<Int, String>`), or a scheduled item.
    public let kind: String
    /// The line of the `subscribe` call that made it, when it was made
    /// inside one that records its line (`subscribe(onNext:…)`,
    /// `subscribe(_:)` with a closure); `nil` otherwise.
    public let site: Site?

    /// `kind, made at File.swift:12` (or `kind, made where Tick cannot tell`).
    public var description: String {
        site.map { "\(kind), made at \($0)" } ?? "\(kind) (made by code that does not record its line)"
    }
}

/// A recording scope's table of its live resources (debug builds).
final class Ledger: @unchecked Sendable {
    // `entries` and `next` are guarded by `lock`.
    private let lock = Lock()
    private var entries: [UInt64: (type: Any.Type?, site: LiveResource.Site?)] = [:]
    private var next: UInt64 = 1

    func add(site: LiveResource.Site?) -> UInt64 {
        lock.withLock {
            defer { next += 1 }
            entries[next] = (nil, site)
            return next
        }
    }

    func name(_ key: UInt64, _ type: Any.Type) {
        lock.withLock { entries[key]?.type = type }
    }

    func remove(_ key: UInt64) {
        lock.withLock { _ = entries.removeValue(forKey: key) }
    }

    func snapshot() -> [LiveResource] {
        let entries = lock.withLock { self.entries.sorted { $0.key < $1.key } }
        return entries.map { _, entry in
            LiveResource(kind: entry.type.map { Self.describe($0) } ?? "Tick resource", site: entry.site)
        }
    }

    /// A resource's kind, from the type of the object that holds it.
    static func describe(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("ClosureSink<") { return "subscription (subscribe(onNext:…), \(name))" }
        if name.hasPrefix("SubjectSubscription<") { return "subject subscription (\(name))" }
        if name.hasPrefix("ScheduledAction") { return "scheduled action on a real scheduler" }
        return "subscription (\(name))"
    }
}

/// Counts one resource from its creation to its destruction (debug builds only).
/// Store one in a class: the class's lifetime is the resource's lifetime.
@usableFromInline
struct ResourceToken: ~Copyable {
    #if DEBUG
    let scope: Resources.Scope?
    /// Its entry in the scope's ledger (0: not recorded).
    let key: UInt64
    init() {
        let scope = Resources.scopeForNewResource
        self.scope = scope
        Resources.increment(scope)
        key = scope?.ledger?.add(site: Resources.site) ?? 0
    }

    /// Names the resource after the type of the object that holds it (for
    /// a recording scope's report).
    func name(_ type: Any.Type) {
        if key != 0 { scope?.ledger?.name(key, type) }
    }

    deinit {
        if key != 0 { scope?.ledger?.remove(key) }
        Resources.decrement(scope)
    }
    #else
    init() {}
    func name(_ type: Any.Type) {}
    #endif
}

/// The resource count of the sink that ``ObservableType/asObservable()``
/// puts over a source, for a subscription that keeps the grammar itself in
/// its place (TickTesting's cold observables, package API): counted,
/// recorded and named (`AnonymousSink<Element>`) as that sink is, for as
/// long as its holder keeps it (the sink's lasts until its disposal or
/// terminal event). Debug builds only, as every resource count.
@usableFromInline
package struct GrammarSinkToken: ~Copyable {
    @usableFromInline var token: ResourceToken?

    /// Counts one resource, named as `asObservable()`'s sink for `Element`.
    @usableFromInline
    package init<Element>(for _: Element.Type) {
        #if DEBUG
        token = ResourceToken()
        token?.name(AnonymousSink<Element>.self)
        #else
        token = nil
        #endif
    }
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
