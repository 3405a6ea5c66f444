import Testing
import Tick
@testable import TickTesting

/// A marble expectation that is never checked (no `flush()`, no `run()`)
/// fails at its line under Swift Testing, with no trait: the scheduler is
/// released when the test lets go of it, and its release reports what was
/// never checked. Nothing is reported for expectations that are checked,
/// however late, or that still can be (the scheduler is alive). A
/// scheduler never released is reported at process exit instead:
/// `MarbleForgottenFlushAtExitTests`.
@Suite(.checksResourceLeaks) struct MarbleForgottenFlushTests {
    static let neverChecked =
        "marble expectation never checked: call `scheduler.flush()` (or use `scheduler.run { … }`)"

    /// Runs `body` with TickTesting's failures captured instead of reported,
    /// and returns them.
    private func failures(_ body: () -> Void) -> [TestFailure] {
        let captured = Locked<[TestFailure]>([])
        TestFailureReporter.withHandler({ failure in captured.withLock { $0.append(failure) } }, operation: body)
        return captured.withLock { $0 }
    }

    // MARK: A forgotten flush fails, at the expect line

    /// The test of the issue: a wrong `toBe` and no flush. The scheduler goes
    /// away at the end of the closure exactly as at the end of a test
    /// function, and the failure is a Swift Testing issue at the `toBe` line.
    @Test func aForgottenFlushFailsAtTheExpectLine() {
        let line = #line + 4
        withKnownIssue {
            let scheduler = TestScheduler()
            let source = scheduler.cold("-a-b-|")
            scheduler.expect(source.map { $0.uppercased() }).toBe("-A-C-|")
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
                && issue.comments.map(\.rawValue).joined() == Self.neverChecked
                && issue.error == nil
        }
    }

    /// A check keeps what it compares in its `MarbleResult` until it runs.
    /// One reported never checked lets go of it then, as when the store's
    /// closure held it, even while the test still holds the result.
    @Test func anUncheckedExpectationLetsGoOfWhatItWouldHaveCompared() {
        final class Marker {}
        weak var expectedValue: Marker?
        var result: MarbleResult<Marker>?
        let reported = failures {
            let scheduler = TestScheduler()
            let marker = Marker()
            expectedValue = marker
            result = scheduler.expect(Observable<Marker>.never()).toBe("-a-", values: ["a": marker], by: ===)
        }
        #expect(reported.map(\.message) == [Self.neverChecked])
        #expect(result?.isChecked == false)
        #expect(expectedValue == nil)
    }

    @Test func everyUncheckedExpectationIsReportedOnceAtItsOwnLine() {
        var lines: [UInt] = []
        let reported = failures {
            let scheduler = TestScheduler()
            let hot = scheduler.hot("-a-^-b-|")
            lines.append(#line + 1)
            scheduler.expect(hot).toBe("--b-|")
            lines.append(#line + 1)
            scheduler.expectSubscriptions(hot.subscriptions).toBe("^---!")
            lines.append(#line + 1)
            scheduler.expect(Observable.just(1)).toEqual(Observable.just(1))
            lines.append(#line + 1)
            scheduler.expect(scheduler.cold("-#")).toBe("-#", by: { (left: String, right: String) in left == right })
        }
        #expect(reported.map(\.site.line) == lines)
        #expect(reported.allSatisfy { $0.message == Self.neverChecked && $0.site.fileID == #fileID })
        #expect(reported.allSatisfy { $0.title == "marble expectation never checked" })
    }

    @Test func anExpectationAdvancedToButNeverFlushedIsReported() {
        // advance never checks; the sources have been subscribed and the hot
        // events scheduled, and still nothing keeps the scheduler alive.
        let line = #line + 5
        let reported = failures {
            let scheduler = TestScheduler()
            let cold = scheduler.cold("-a--b|")
            let hot = scheduler.hot("--x--y|")
            scheduler.expect(Observable.merge(cold.asObservable(), hot.asObservable())).toBe("-ax-by|")
            scheduler.advance(by: 3)
        }
        #expect(reported.map(\.site.line) == [UInt(line)])
    }

    /// The scheduler is released inside a task the test started: the task
    /// carries the test's context, so the failure still belongs to the test.
    @Test func aSchedulerReleasedInATaskOfTheTestIsReportedToTheTest() async {
        let line = #line + 4
        await withKnownIssue {
            await Task {
                let scheduler = TestScheduler()
                scheduler.expect(scheduler.cold("a|")).toBe("a|")
            }.value
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.comments.map(\.rawValue).joined() == Self.neverChecked
        }
    }

    // MARK: No false alarms

    @Test func expectationsCheckedByFlushOrRunAreNotReportedAtRelease() {
        let reported = failures {
            let scheduler = TestScheduler()
            let source = scheduler.cold("-a|")
            scheduler.expect(source).toBe("-a|")
            scheduler.expectSubscriptions(source.subscriptions).toBe("^-!")
            scheduler.flush()
            TestScheduler().run { helpers in
                helpers.expect(helpers.hot("a-b|")).toBe("a-b|")
            }
        }
        #expect(reported.isEmpty)
    }

    /// A scheduler that outlives the scope that stated its expectations (kept
    /// by a longer-lived object) is not released there, so nothing is
    /// reported; flushed later, its expectations are checked then.
    @Test func aSchedulerKeptBeyondItsScopeIsCheckedLaterWithoutAReport() {
        let holder = Locked<TestScheduler?>(nil)
        var result: MarbleResult<String>?
        let whileKept = failures {
            let scheduler = TestScheduler()
            result = scheduler.expect(scheduler.cold("-a|")).toBe("-a|")
            holder.withLock { $0 = scheduler }
        }
        #expect(whileKept.isEmpty)
        #expect(result?.isChecked == false)
        holder.withLock { $0 }?.flush()
        #expect(result?.passed == true)
        let atRelease = failures { holder.withLock { $0 = nil } }
        #expect(atRelease.isEmpty)
    }

    /// Checked in an async continuation (a task that flushes after the test
    /// awaited it): no report, the expectation passes.
    @Test func aSchedulerCheckedInAnAsyncContinuationIsNotReported() async {
        let scheduler = TestScheduler()
        let result = scheduler.expect(scheduler.cold("-a-|")).toBe("-a-|")
        let passed = await Task {
            scheduler.flush()
            return result.passed
        }.value
        #expect(passed)
    }

    /// What makes the release possible: a test observable does not keep its
    /// scheduler alive (not even one whose events are queued on it); once
    /// the scheduler is gone it is inert, and nothing traps.
    @Test func aTestObservableDoesNotKeepItsSchedulerAlive() {
        weak var released: TestScheduler?
        // Dropped with the hot observable's events queued and never driven:
        // the undriven-work hint, captured here.
        let hints = Locked(0)
        let (cold, hot) = PendingWorkLog.$hintHandler.withValue({ _, _ in hints.withLock { $0 += 1 } }) {
            let scheduler = TestScheduler()
            released = scheduler
            return (scheduler.cold("a|"), scheduler.createHotObservable([.next(1, "x"), .completed(2)]))
        }
        #expect(released == nil)
        #expect(hints.withLock { $0 } == 1)
        var received = 0
        let subscriptions = [
            cold.subscribe(onNext: { _ in received += 1 }), hot.subscribe(onNext: { _ in received += 1 }),
        ]
        subscriptions.forEach { $0.dispose() }
        #expect(received == 0)
        #expect(cold.subscriptions.isEmpty && hot.subscriptions.isEmpty)
        #expect(cold.scheduler.clock == 0 && cold.scheduler.pendingCount == 0)
    }

    // MARK: The limit

    /// An observable under test that holds the scheduler (a time operator
    /// given it) keeps the scheduler alive through the work it has queued, so
    /// it is not released when the test lets go of it and the test is not
    /// told; XCTest reports it at teardown, Swift Testing at process exit
    /// (`MarbleForgottenFlushAtExitTests`), and `run { }` cannot forget.
    @Test func aSchedulerKeptAliveByItsObservableIsNotReleased() {
        weak var released: TestScheduler?
        let reported = failures {
            let scheduler = TestScheduler()
            released = scheduler
            scheduler.expect(scheduler.cold("a|").delay(.milliseconds(2), scheduler: scheduler)).toBe("--a|")
        }
        #expect(released != nil)
        #expect(reported.isEmpty)
        // Flushing ends the cycle (and checks the expectation).
        let flushed = failures { released?.flush() }
        #expect(flushed.isEmpty)
        #expect(released == nil)
    }

    /// Under the `.checksResourceLeaks` trait the end of the test reports it
    /// at its line even then, and lets go of what it subscribed, so no leak
    /// is reported on top (an issue not matched here would fail the test).
    @Test func underTheLeakTraitAKeptAliveSchedulerIsReportedAtTheExpectLine() async throws {
        let line = #line + 5
        try await withKnownIssue {
            let test = try #require(Test.current)
            try await ResourceLeakCheck().provideScope(for: test, testCase: Test.Case.current) {
                let scheduler = TestScheduler()
                scheduler.expect(scheduler.cold("a|").delay(.milliseconds(2), scheduler: scheduler)).toBe("--a|")
            }
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.comments.map(\.rawValue).joined() == Self.neverChecked
        }
    }
}
