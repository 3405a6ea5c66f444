import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct MarbleExpectationTests {
    @Test func coldObservableThroughAnOperator() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b-|")
        scheduler.expect(source.map { $0.uppercased() }).toBe("-A-B-|")
        scheduler.expectSubscriptions(source.subscriptions).toBe("^----!")
        scheduler.flush()
        #expect(source.subscriptions == [Subscription(0, 5)])
    }

    @Test func coldDiagramBuildsTheRecordedEvents() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-#", values: ["a": 1], error: TestError(5))
        #expect(source.recordedEvents == [.next(1, 1), .error(3, TestError(5))])
        scheduler.expect(source.map { $0 * 10 }).toBe("-a-#", values: ["a": 10], error: TestError(5))
        scheduler.flush()
    }

    @Test func hotObservableWithSubscriptionDiagram() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-^-b-c-|")
        #expect(source.recordedEvents == [.next(-2, "a"), .next(2, "b"), .next(4, "c"), .completed(6)])
        // RxJS order: the unsubscription at 4 comes before c at 4, and the
        // subscription at 2 before b at 2.
        scheduler.expect(source, subscription: "^---!").toBe("--b")
        scheduler.expect(source, subscription: "--^").toBe("--b-c-|")
        scheduler.expectSubscriptions(source.subscriptions).toBe("^---!", "--^---!")
        scheduler.flush()
    }

    @Test func hotEventsBeforeTheCaretAreNeverEmitted() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("ab^c|")
        let observer = scheduler.createObserver(String.self)
        let subscription = source.subscribe(observer)
        scheduler.run()
        subscription.dispose()
        #expect(observer.events == [.next(1, "c"), .completed(2)])
    }

    @Test func hotEventsBeforeTheClockAtCreationAreSkippedAtTheExactTime() {
        // Created at 5: the event one frame before is in the past; the ones at
        // exactly 5 and one frame after are emitted.
        let scheduler = TestScheduler()
        scheduler.advance(to: 5)
        let source = scheduler.hot("----abc|")
        #expect(source.recordedEvents.map(\.time) == [4, 5, 6, 7])
        let observer = scheduler.createObserver(String.self)
        let subscription = source.subscribe(observer)
        scheduler.run()
        subscription.dispose()
        #expect(observer.events == [.next(5, "b"), .next(6, "c"), .completed(7)])
    }

    @Test func timeOfADiagram() {
        let scheduler = TestScheduler()
        #expect(scheduler.time("---|") == .milliseconds(3))
        let tenMs = TestScheduler(frame: .milliseconds(10))
        #expect(tenMs.time("--|") == .milliseconds(20))
        let source = scheduler.cold("a-b|")
        scheduler.expect(source.delay(scheduler.time("---|"), scheduler: scheduler)).toBe("---a-b|")
        scheduler.flush()
    }

    @Test func framesFollowTheSchedulersFrame() {
        let scheduler = TestScheduler(frame: .milliseconds(10))
        let source = scheduler.cold("-a 5ms b|")
        #expect(source.recordedEvents[1].time == TestTime(frames: 2, remainder: .milliseconds(5)))
        scheduler.expect(source).toBe("-a 5ms b|")
        scheduler.flush()
    }

    @Test func neverEndingSourceIsDisposedAfterTheCheck() {
        // The suite's leak check fails this test if flush() leaves the subscription alive.
        let scheduler = TestScheduler()
        let ticks = Observable<Int>.interval(.milliseconds(2), scheduler: scheduler).take(3)
        scheduler.expect(ticks.map { String($0) }).toBe("--0-1-(2|)")
        let source = scheduler.hot("-a-b")
        scheduler.expect(source).toBe("-a-b")
        scheduler.flush()
        // Disposed at the end of the flush: the clock stopped at 6, the last action.
        #expect(source.subscriptions == [Subscription(0, 6)])
    }

    @Test func runChecksExpectationsToo() {
        let scheduler = TestScheduler()
        let line = #line + 1
        scheduler.expect(scheduler.cold("a|")).toBe("b|")
        withKnownIssue {
            scheduler.run()
        } matching: { issue in
            issue.sourceLocation?.line == line
        }
    }

    @Test func advanceDoesNotCheck() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.cold("a|")).toBe("b|")
        // An issue here would fail the test: advance never checks.
        scheduler.advance(by: 10)
        withKnownIssue { scheduler.flush() }
        // Checked once: a second flush reports nothing.
        scheduler.flush()
    }

    @Test func forgottenFlushShowsUpAsALeak() {
        // Without flush() nothing is checked, but the subscription that
        // expect() scheduled is still pending: the leak check notices.
        let scope = Resources.Scope()
        let scheduler = scope.run {
            let scheduler = TestScheduler()
            scheduler.expect(scheduler.cold("a|")).toBe("a|")
            return scheduler
        }
        #expect(scope.live > 0 || !Resources.isCounting)
        scheduler.flush()
        #expect(scope.live == 0)
    }

    // MARK: Failures are reported at the caller's line with the diff

    @Test func failingExpectationReportsTheDiffAtTheCallersLine() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b-|")
        let line = #line + 1
        scheduler.expect(source).toBe("-a-c-|")
        withKnownIssue {
            scheduler.flush()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == #fileID
                && text.contains("""
                    expected: -a-c-|
                    actual:   -a-b-|
                                 ^ first difference at frame 3 (3ms)
                    """)
                && text.contains("frame 3 (3ms): expected next(c), actual next(b)")
        }
    }

    @Test func failingSubscriptionExpectationReportsAtTheCallersLine() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-|")
        scheduler.expect(source).toBe("-a-|")
        let line = #line + 1
        scheduler.expectSubscriptions(source.subscriptions).toBe("^--!", "^-!")
        withKnownIssue {
            scheduler.flush()
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.map(\.rawValue).joined().contains("actual subscriptions:\n  ^--!")
        }
    }

    @Test func unreadableDiagramsAreReportedAtTheCallersLine() {
        let scheduler = TestScheduler()
        let coldLine = #line + 2
        withKnownIssue {
            let source = scheduler.cold("((a))")
            #expect(source.recordedEvents.isEmpty)
        } matching: { issue in
            issue.sourceLocation?.line == coldLine
                && issue.comments.map(\.rawValue).joined().contains("a group cannot contain another group\n  ((a))\n   ^")
        }
        let expectLine = #line + 2
        withKnownIssue {
            scheduler.expect(scheduler.cold("a|"), subscription: "^-a").toBe("a|")
        } matching: { issue in
            issue.sourceLocation?.line == expectLine
                && issue.comments.map(\.rawValue).joined().contains("\"a\" in a subscription diagram")
        }
        withKnownIssue {
            _ = scheduler.hot("-^-^")
            _ = scheduler.time("---")
            scheduler.expect(scheduler.cold("a|")).toBe("a|b")
            scheduler.expectSubscriptions([]).toBe("!!")
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("marble diagram error")
        }
        scheduler.flush()
    }
}
