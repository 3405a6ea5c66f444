import Testing
import Tick
import TickTesting

/// The `.checksResourceLeaks` trait itself: it must fail a test that leaks and
/// stay silent for one that does not. Each test runs the trait's scope around
/// a body directly (as Swift Testing would around a test function).
@Suite(.checksResourceLeaks) struct ResourceLeakCheckTests {
    /// Runs `body` the way the trait runs a test.
    func runUnderTrait(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let test = try #require(Test.current)
        try await ResourceLeakCheck().provideScope(for: test, testCase: Test.Case.current, performing: body)
    }

    @Test func aSubscriptionNeverDisposedFailsTheTest() async throws {
        let subject = PublishSubject<Int>()
        let leaked = Locked<(any Disposable)?>(nil)
        try await withKnownIssue {
            try await runUnderTrait {
                let d = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
                leaked.withLock { $0 = d }
            }
        } matching: { issue in
            issue.description.contains("Tick resource(s) created by this test are still alive")
        }
        // Clean up, so this test itself leaks nothing.
        leaked.withLock { $0?.dispose() }
    }

    @Test func aPendingScheduledItemFailsTheTest() async throws {
        // A test scheduler counts its pending items in the scope it was created in.
        let kept = Locked<TestScheduler?>(nil)
        try await withKnownIssue {
            try await runUnderTrait {
                let scheduler = TestScheduler()
                scheduler.scheduleAt(500) {}
                kept.withLock { $0 = scheduler }
            }
        } matching: { issue in
            issue.description.contains("1 Tick resource(s)")
        }
        let scheduler = try #require(kept.withLock { $0 })
        await scheduler.run()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aTestThatCleansUpPasses() async throws {
        // No withKnownIssue: any issue the trait recorded would fail this test.
        try await runUnderTrait {
            let subject = PublishSubject<Int>()
            let d = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
            subject.onNext(1)
            d.dispose()
            let scheduler = TestScheduler()
            scheduler.scheduleAt(500) {}
            scheduler.run()
        }
    }

    @Test func theScopeCountsOnlyItsOwnResources() {
        let outer = Resources.Scope()
        let inner = Resources.Scope()
        let subject = PublishSubject<Int>()
        let a = outer.run { subject.subscribe(onNext: { _ in }) }
        let b = inner.run { subject.map { $0 }.subscribe(onNext: { _ in }) }
        #expect(outer.live > 0)
        #expect(inner.live > outer.live)
        b.dispose()
        #expect(inner.live == 0)
        #expect(outer.live > 0)
        a.dispose()
        #expect(outer.live == 0)
    }
}

/// A value guarded by a lock (test bookkeeping shared with `@Sendable` closures).
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
