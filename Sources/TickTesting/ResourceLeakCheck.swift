import Testing
import Tick

/// A Swift Testing trait that fails a test whose Tick resources (live
/// subscriptions, pending scheduled items) outlive it. It also fails, at
/// their lines, the marble expectations stated in the test and never checked.
///
/// ```swift
/// @Suite(.checksResourceLeaks) struct MyTests { ... }
/// @Test(.checksResourceLeaks) func noLeak() { ... }
/// ```
///
/// It counts with ``Resources/Scope``, so tests running in parallel do not
/// disturb each other. Resources are counted in debug builds only; in release
/// builds the check always passes.
///
/// **What it cannot see by default**: the scope is a task-local value, so
/// resources created where the test's task-locals do not reach are not
/// counted: on a `Thread` the test starts, in work a `DispatchQueue` runs, in
/// a `Task.detached`. (A real scheduler's work counts if it was *scheduled*
/// from the test: the pending item belongs to the scope that scheduled it;
/// a subscription made later inside that work does not.) To count those too,
/// use `.checksResourceLeaks(includingOtherThreads: true)`, which counts
/// every resource created outside any scope, process-wide, while the test
/// runs: put such tests in a `.serialized` suite (or run without
/// parallelism), since other tests' unscoped resources would count as well.
public struct ResourceLeakCheck: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }
    /// Whether resources created outside any scope (other threads, detached
    /// tasks) while the test runs count too.
    public let includesOtherThreads: Bool

    /// The check; `includingOtherThreads` also counts resources created
    /// outside any scope while the test runs (see the type's documentation).
    public init(includingOtherThreads: Bool = false) {
        self.includesOtherThreads = includingOtherThreads
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself is only a container: each test gets its own scope.
        guard !test.isSuite else {
            try await function()
            return
        }
        let scope = Resources.Scope()
        try await scope.run(includingOtherThreads: includesOtherThreads) { try await function() }
        // Marble expectations never checked fail at their own lines (which
        // also lets go of what they subscribed).
        MarbleExpectationStore.reportUnchecked(in: scope)
        let live = scope.live
        if live != 0 {
            Issue.record(
                "\(live) Tick resource(s) created by this test are still alive after it ended: a subscription that was never disposed or completed, or a scheduled item still pending. (Counted by Resources.Scope; debug builds only.)",
                sourceLocation: test.sourceLocation)
        }
    }
}

extension Trait where Self == ResourceLeakCheck {
    /// Fails the test if Tick resources it created are still alive when it ends.
    public static var checksResourceLeaks: Self { ResourceLeakCheck() }

    /// ``checksResourceLeaks``, also counting resources created outside any
    /// scope (threads the test starts, detached tasks) while the test runs.
    /// Use it on `.serialized` suites: see ``ResourceLeakCheck``.
    public static func checksResourceLeaks(includingOtherThreads: Bool) -> Self {
        ResourceLeakCheck(includingOtherThreads: includingOtherThreads)
    }
}
