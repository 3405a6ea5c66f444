import Synchronization

// How an operator's closure written on the main actor stays on the main actor
// (Docs/Concurrency.md, "What Tick checks and what it trusts").
//
// In Swift 6, a closure that is not `@Sendable`, written in a `@MainActor`
// context, is isolated to the main actor: it may touch main-actor state
// without `await`. An operator stores its closure in a `Sendable` observable
// and calls it wherever the events arrive, which after `observe(on:)` a
// background scheduler (or with a background source) is another thread.
// Every public operator that stores a closure takes the caller's isolation
// (`isolation: (any Actor)? = #isolation`). When it is the main actor, the
// closure is wrapped once, when the operator is applied: each call first
// checks that it runs on the main queue. Off the main queue the closure is
// NOT called: the misuse is reported (once per operator) and the sequence
// ends with `TickError.isolationViolation(operator:)`. For any other
// isolation (nil: a nonisolated caller, or Tick itself; another actor, which
// Swift offers no non-trapping way to check) the closure is used as given,
// at no cost per call.

/// The check that a main-actor-isolated operator closure runs on the main
/// queue: one per operator applied (shared by its subscriptions).
@usableFromInline
final class MainActorClosureCheck: Sendable {
    /// The operator, as the report and the error name it (`"map"`).
    @usableFromInline let operatorName: String
    /// Whether the misuse was reported (once per operator).
    private let reported = Atomic<Bool>(false)

    private init(operatorName: String) {
        self.operatorName = operatorName
    }

    /// The check for a closure given to `operatorName` by a caller with
    /// `isolation`: nil (nothing to check) unless it is the main actor.
    ///
    /// Inlinable, so that for a nonisolated caller (`#isolation` is a
    /// literal `nil`) the optimizer sees no check and keeps the caller's
    /// closure as it is: the fused `map`/`filter`/`scan` stages then inline
    /// it as before.
    @inlinable
    static func forIsolation(_ isolation: (any Actor)?, operator operatorName: @autoclosure () -> String)
        -> MainActorClosureCheck?
    {
        guard let isolation else { return nil }
        return forActor(isolation, operatorName())
    }

    @usableFromInline
    static func forActor(_ isolation: any Actor, _ operatorName: String) -> MainActorClosureCheck? {
        guard isolation === MainActor.shared else { return nil }
        return MainActorClosureCheck(operatorName: operatorName)
    }

    /// The error the sequence ends with when the closure may not be called.
    @usableFromInline var error: TickError { .isolationViolation(operator: operatorName) }

    /// Whether the closure may be called now: `true` on the main queue;
    /// elsewhere reports the misuse (the first time) and returns `false`.
    @usableFromInline
    func allowsCall() -> Bool {
        if MainQueue.isCurrent { return true }
        if !reported.exchange(true, ordering: .relaxed) {
            Misuse.report(
                """
                the closure given to \(operatorName) is isolated to the main actor (it was written in a \
                @MainActor context), but its events arrive off the main thread. Tick did not call it and ended \
                the sequence with TickError.isolationViolation(operator: "\(operatorName)"). Fixes: \
                observe(on: MainScheduler.instance) before \(operatorName) if the closure needs main-actor \
                state; pass isolation: nil to \(operatorName) if the closure does not use main-actor state; \
                or build the chain in a nonisolated function.
                """)
        }
        return false
    }

    /// Throws ``error`` unless the closure may be called now (``allowsCall()``).
    @usableFromInline
    func check() throws {
        if !allowsCall() { throw error }
    }

    // Wrappers: the closure, called only after `check()` passed.

    @inlinable
    func wrap<Result>(_ body: @escaping () throws -> Result) -> () throws -> Result {
        { () throws -> Result in
            try self.check()
            return try body()
        }
    }

    @inlinable
    func wrap<A, Result>(_ body: @escaping (A) throws -> Result) -> (A) throws -> Result {
        { (a: A) throws -> Result in
            try self.check()
            return try body(a)
        }
    }

    @inlinable
    func wrap<A, B, Result>(_ body: @escaping (A, B) throws -> Result) -> (A, B) throws -> Result {
        { (a: A, b: B) throws -> Result in
            try self.check()
            return try body(a, b)
        }
    }

    @inlinable
    func wrap<State, A>(_ body: @escaping (inout State, A) throws -> Void) -> (inout State, A) throws -> Void {
        { (state: inout State, a: A) throws -> Void in
            try self.check()
            try body(&state, a)
        }
    }

    /// A closure that cannot throw and has no sequence to end (`onDispose`):
    /// skipped, after the report, when it may not be called.
    func wrapSkipping(_ body: @escaping () -> Void) -> () -> Void {
        {
            guard self.allowsCall() else { return }
            body()
        }
    }
}
