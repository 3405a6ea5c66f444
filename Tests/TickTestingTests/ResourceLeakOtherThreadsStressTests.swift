import Foundation
import Testing
import Tick
import TickTesting

/// Issue 16, item 8: the leak check's task-local scope does not reach threads
/// or detached tasks; `.checksResourceLeaks(includingOtherThreads: true)`
/// counts what is created there too. Serialized: the catch-all scope is
/// process-wide.
@Suite(.serialized) struct ResourceLeakOtherThreadsStressTests {
    func runUnderTrait(_ trait: ResourceLeakCheck, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
    }

    /// Subscribes to `subject` on a new thread and stores the subscription in
    /// `kept` (under its lock, which also orders the hand-over for TSan).
    func subscribeOnAThread(_ subject: PublishSubject<Int>, into kept: Locked<(any Disposable)?>) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                let subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
                kept.withLock { $0 = subscription }
                continuation.resume()
            }
            thread.start()
        }
    }

    @Test func aLeakFromAThreadIsCountedWhenAskedFor() async throws {
        let subject = PublishSubject<Int>()
        let leaked = Locked<(any Disposable)?>(nil)
        try await withKnownIssue {
            try await runUnderTrait(.checksResourceLeaks(includingOtherThreads: true)) {
                await subscribeOnAThread(subject, into: leaked)
            }
        } matching: { issue in
            issue.description.contains("Tick resource(s) created by this test are still alive")
        }
        leaked.withLock { $0?.dispose() }
    }

    @Test func aLeakFromADetachedTaskIsCountedWhenAskedFor() async throws {
        let subject = PublishSubject<Int>()
        let leaked = Locked<(any Disposable)?>(nil)
        try await withKnownIssue {
            try await runUnderTrait(.checksResourceLeaks(includingOtherThreads: true)) {
                await Task.detached { leaked.withLock { $0 = subject.subscribe(onNext: { _ in }) } }.value
            }
        } matching: { issue in
            issue.description.contains("Tick resource(s) created by this test are still alive")
        }
        leaked.withLock { $0?.dispose() }
    }

    @Test func theDefaultCheckDoesNotSeeOtherThreadsAsDocumented() async throws {
        let subject = PublishSubject<Int>()
        let leaked = Locked<(any Disposable)?>(nil)
        // No issue: the subscription made on another thread belongs to no scope.
        try await runUnderTrait(.checksResourceLeaks) {
            await subscribeOnAThread(subject, into: leaked)
        }
        leaked.withLock { $0?.dispose() }
    }
}
