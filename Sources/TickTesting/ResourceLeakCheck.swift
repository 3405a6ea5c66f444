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
        let scope = Resources.Scope(recordingDetails: true)
        try await scope.run(includingOtherThreads: includesOtherThreads) { try await function() }
        // Marble expectations never checked fail at their own lines (which
        // also lets go of what they subscribed).
        MarbleExpectationStore.reportUnchecked(in: scope)
        let schedulers = ScopedSchedulers.shared.take(scope)
        let live = scope.live
        if live != 0 {
            Issue.record(
                Comment(rawValue: Self.report(live: live, resources: scope.liveResources, schedulers: schedulers)),
                sourceLocation: test.sourceLocation)
        }
    }

    /// The failure's text: how many resources are alive, then each of them,
    /// with its kind and where it was made (identical ones counted once).
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    static func report(live: Int, resources: [LiveResource], schedulers: [TestScheduler]) -> String {
        var lines = [
            "\(live) Tick resource(s) created by this test are still alive after it ended (a subscription never disposed or completed, or a scheduled item still pending):"
        ]
        var itemized = 0
        var groups: [(text: String, count: Int)] = []
        for resource in resources {
            let text = resource.description
            if let index = groups.firstIndex(where: { $0.text == text }) {
                groups[index].count += 1
            } else {
                groups.append((text, 1))
            }
        }
        for group in groups {
            lines.append("- " + (group.count > 1 ? "\(group.count) × " : "") + group.text)
            itemized += group.count
        }
        for scheduler in schedulers {
            let pending = scheduler.pendingCount
            guard let summary = scheduler.pendingWorkSummary() else { continue }
            lines.append("- " + summary)
            itemized += pending
        }
        if live > itemized {
            lines.append(
                "- \(live - itemized) more: scheduled items of real schedulers (DispatchQueueScheduler, OperationQueueScheduler, …), or resources made outside this test's task")
        }
        lines.append(
            "Dispose what the test subscribed (a DisposeBag it lets go of, or `dispose()`), and run or dispose what it scheduled. (Counted by Resources.Scope; debug builds only.)")
        return lines.joined(separator: "\n")
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
