import Testing
import Tick

/// A Swift Testing trait that fails a test whose Tick resources (live
/// subscriptions, pending scheduled items) outlive it.
///
/// ```swift
/// @Suite(.checksResourceLeaks) struct MyTests { ... }
/// @Test(.checksResourceLeaks) func noLeak() { ... }
/// ```
///
/// It counts with ``Resources/Scope``, so tests running in parallel do not
/// disturb each other. Resources are counted in debug builds only; in release
/// builds the check always passes.
public struct ResourceLeakCheck: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public init() {}

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself is only a container: each test gets its own scope.
        guard !test.isSuite else {
            try await function()
            return
        }
        let scope = Resources.Scope()
        try await scope.run { try await function() }
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
}
