import Foundation
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

    @Test func theReportNamesEachLeakedSubscriptionWithItsKindAndLine() async throws {
        let subject = PublishSubject<Int>()
        let leaked = Locked<[any Disposable]>([])
        let closureLine = Locked<UInt>(0)
        let eventLine = Locked<UInt>(0)
        try await withKnownIssue {
            try await runUnderTrait {
                closureLine.withLock { $0 = #line + 1 }
                let first = subject.filter { $0 > 0 }.subscribe(onNext: { _ in })
                eventLine.withLock { $0 = #line + 1 }
                let second = subject.subscribe { _ in }
                leaked.withLock { $0 = [first, second] }
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            let at = { (line: Locked<UInt>) in "made at TickTestingTests/ResourceLeakCheckTests.swift:\(line.withLock { $0 })" }
            return text.contains("Tick resource(s) created by this test are still alive")
                // The closure subscription, the filter's, and the subject's
                // subscriptions, each named, at the line that subscribed.
                && text.contains("subscription (subscribe(onNext:…), ClosureSink<Int>), \(at(closureLine))")
                && text.contains("subject subscription (SubjectSubscription<Int>), \(at(closureLine))")
                && text.contains(at(eventLine))
                // The filter's own subscription too (3 resources at that line).
                && text.components(separatedBy: at(closureLine)).count - 1 >= 3
        }
        leaked.withLock { $0.forEach { $0.dispose() } }
    }

    @Test func theReportNamesThePendingWorkAndTheSchedulerThatHoldsIt() async throws {
        let kept = Locked<TestScheduler?>(nil)
        let line = Locked<UInt>(0)
        try await withKnownIssue {
            try await runUnderTrait {
                line.withLock { $0 = #line + 1 }
                let scheduler = TestScheduler()
                scheduler.scheduleAt(500) {}
                scheduler.scheduleAt(700) {}
                scheduler.advance(to: 20)
                kept.withLock { $0 = scheduler }
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.contains(
                "2 scheduled item(s) pending on the TestScheduler made at TickTestingTests/ResourceLeakCheckTests.swift:\(line.withLock { $0 }) (now 20, the earliest due at 500)")
        }
        let scheduler = try #require(kept.withLock { $0 })
        await scheduler.run()
    }

    @Test func aRecordingScopeListsItsLiveResourcesAndAPlainOneDoesNot() {
        let subject = PublishSubject<String>()
        let recording = Resources.Scope(recordingDetails: true)
        let plain = Resources.Scope()
        let line: UInt = #line + 1
        let a = recording.run { subject.map { $0 + "!" }.subscribe(onNext: { _ in }) }
        let b = plain.run { subject.subscribe(onNext: { _ in }) }
        let resources = recording.liveResources
        #expect(resources.count == recording.live)
        #expect(resources.allSatisfy { $0.site?.line == line })
        #expect(resources.allSatisfy { $0.site?.fileID == "TickTestingTests/ResourceLeakCheckTests.swift" })
        #expect(resources.contains { $0.kind.contains("ClosureSink<String>") })
        #expect(plain.live > 0)
        #expect(plain.liveResources.isEmpty)
        a.dispose()
        #expect(recording.liveResources.isEmpty)
        b.dispose()
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
