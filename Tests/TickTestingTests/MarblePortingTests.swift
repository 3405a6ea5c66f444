import Foundation
import Synchronization
import Testing
import Tick
import TickTesting

/// RxJS order for the marble API's hot observables, the `run { }` form,
/// comparator and observable-to-observable expectations, and the outcome of
/// an expectation as a value (issue 13).
@Suite(.checksResourceLeaks) struct MarblePortingTests {
    // MARK: Hot observables are set up at the flush, as in RxJS

    @Test func hotEventAtTheSubscriptionFrameIsSeen() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("a-b|")
        scheduler.expect(source).toBe("a-b|")
        scheduler.flush()
    }

    @Test func rxjsGuideHotSourceWithTwoSubscribers() {
        // The RxJS marble-testing guide's subscription-marbles example,
        // diagrams copied as written.
        let scheduler = TestScheduler()
        let source = scheduler.hot("--a--a--a--a--a--a--a--")
        let sub1 = "      --^-----------!"
        let sub2 = "      ---------^--------!"
        let expect1 = "   --a--a--a--a--"
        let expect2 = "   -----------a--a--a-"
        scheduler.expect(source, subscription: sub1).toBe(expect1)
        scheduler.expect(source, subscription: sub2).toBe(expect2)
        scheduler.flush()
    }

    @Test func rxjsGuideHotSourceWithSubscriptionPointAndValues() {
        // The RxJS course's hot example with durations, copied as written.
        let scheduler = TestScheduler()
        let values = ["a": 0, "b": 1, "c": 2] as [Character: Int]
        let source = scheduler.hot("100ms a 99ms b 99ms c|", values: values)
        let subscription1 = " 200ms ^ 100ms !"
        let subscription2 = " 300ms ^"
        let expected1 = " 200ms b 99ms c"
        let expected2 = " 300ms c|"
        scheduler.expect(source, subscription: subscription1).toBe(expected1, values: values)
        scheduler.expect(source, subscription: subscription2).toBe(expected2, values: values)
        scheduler.flush()
    }

    @Test func hotWithCaretMergedWithAnother() {
        // RxJS's merge test of two hot sources with "^", diagrams as written.
        let scheduler = TestScheduler()
        let e1 = scheduler.hot("----a--^--b-------c--|")
        let e2 = scheduler.hot("  ---d-^--e---------f-----|")
        let expected = "              ---(be)----c-f-----|"
        scheduler.expect(Observable.merge(e1.asObservable(), e2.asObservable())).toBe(expected)
        scheduler.flush()
    }

    @Test func unsubscriptionComesBeforeTheHotEventOfItsFrame() {
        // "!" at frame 3 and "c" at frame 3: the subscriber has left.
        let scheduler = TestScheduler()
        let source = scheduler.hot("-b-c|")
        scheduler.expect(source, subscription: "-^-!").toBe("-b")
        scheduler.flush()
    }

    @Test func createHotObservableKeepsTheRxTestOrder() {
        // Events of createHotObservable are scheduled when it is created, so
        // a subscription made later at the same frame misses them.
        let scheduler = TestScheduler()
        let source = scheduler.createHotObservable([.next(0, "a"), .next(2, "b"), .completed(3)])
        scheduler.expect(source).toBe("--b|")
        scheduler.flush()
    }

    @Test func hotMadeWhileTheSchedulerRunsStartsAtOnce() {
        let scheduler = TestScheduler()
        let observer = scheduler.createObserver(String.self)
        var subscription: (any Disposable)?
        scheduler.scheduleAt(2) {
            subscription = scheduler.hot("--a-b|").subscribe(observer)
        }
        scheduler.run()
        subscription?.dispose()
        #expect(observer.events == [.next(2, "a"), .next(4, "b"), .completed(5)])
    }

    // MARK: run { }

    @Test func runFormFlushesAndChecks() {
        let scheduler = TestScheduler()
        let line = #line + 3
        withKnownIssue {
            scheduler.run { helpers in
                helpers.expect(helpers.cold("-a|")).toBe("-b|")
            }
        } matching: { issue in
            issue.sourceLocation?.line == line
        }
        TestScheduler().run { helpers in
            let source = helpers.hot("a-b|")
            helpers.expect(source.map { $0.uppercased() }).toBe("A-B|")
        }
    }

    // MARK: Failures say what differs; outcomes are values

    @Test func swiftTestingIssueIsAFailureTitledWithTheFrame() {
        // A recorded failure at the `toBe` line whose first line says what
        // differs, not a caught error ("Caught error: …").
        let scheduler = TestScheduler()
        let line = #line + 1
        scheduler.expect(scheduler.cold("-a-b-|")).toBe("-a-c-|")
        withKnownIssue {
            scheduler.flush()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            guard case .unconditional = issue.kind else { return false }
            return issue.error == nil && issue.sourceLocation?.line == line
                && text.split(separator: "\n").first == "marble mismatch at frame 3"
                && text.contains("expected: -a-c-|")
        }
    }

    @Test func outcomeIsAValueAndTheHandlerIsReplaceable() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b-|")
        let good = scheduler.expect(source).toBe("-a-b-|")
        let badLine = #line + 1
        let bad = scheduler.expect(source).toBe("-a-c-|")
        #expect(!good.isChecked && !bad.isChecked)
        let failures = Mutex<[TestFailure]>([])
        TestFailureReporter.withHandler({ failure in failures.withLock { $0.append(failure) } }) {
            scheduler.flush()
        }
        #expect(good.isChecked && good.passed && good.diff == nil)
        #expect(good.recorded == [.next(1, "a"), .next(3, "b"), .completed(5)])
        #expect(bad.isChecked && !bad.passed)
        #expect(bad.recorded == good.recorded)
        #expect(bad.expected == [.next(1, "a"), .next(3, "c"), .completed(5)])
        #expect(bad.diff?.contains("frame 3 (3ms): expected next(c), actual next(b)") == true)
        let captured = failures.withLock { $0 }
        #expect(captured.count == 1)
        #expect(captured.first?.title == "marble mismatch at frame 3")
        #expect(captured.first?.site.line == UInt(badLine))
    }

    // MARK: Elements that are not Equatable; two observables

    struct Reading {
        var celsius: Double
    }

    @Test func comparatorForElementsThatAreNotEquatable() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b|", values: ["a": Reading(celsius: 20.04), "b": Reading(celsius: 21)])
        let close = { (l: Reading, r: Reading) in abs(l.celsius - r.celsius) < 0.1 }
        scheduler.expect(source).toBe("-x-y|", values: ["x": Reading(celsius: 20), "y": Reading(celsius: 21)], by: close)
        let line = #line + 1
        scheduler.expect(source).toBe("-x-x|", values: ["x": Reading(celsius: 20)], by: close)
        withKnownIssue {
            scheduler.flush()
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.comments.map(\.rawValue).joined().contains("frame 3 (3ms)")
        }
    }

    @Test func errorElementsCompareByTicksErrorRule() {
        let scheduler = TestScheduler()
        let errors: Observable<any Error> = scheduler.cold("-a-b|", values: ["a": TestError(1) as any Error, "b": TestError(2)])
            .asObservable()
        scheduler.expect(errors).toBe("-a-b|", values: ["a": TestError(1), "b": TestError(2)])
        withKnownIssue {
            scheduler.expect(errors).toBe("-a-a|", values: ["a": TestError(1)])
            scheduler.flush()
        }
    }

    @Test func toEqualComparesTwoTimelines() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a-b|", values: ["a": 1, "b": 2])
        scheduler.expect(source.map { $0 * 2 }).toEqual(scheduler.cold("-x-y|", values: ["x": 2, "y": 4]))
        scheduler.expect(source.filter { $0 > 1 }, subscription: "--^").toEqual(source.skip(1))
        let line = #line + 1
        scheduler.expect(source).toEqual(source.map { $0 + 1 })
        withKnownIssue {
            scheduler.flush()
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.map(\.rawValue).joined().contains("frame 1 (1ms): expected next(2), actual next(1)")
        }
    }

    // MARK: Subscription expectations

    @Test func subscriptionDiagramsAsAnArray() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-|")
        scheduler.expect(source, subscription: "^--!").toBe("-a-")
        scheduler.expect(source, subscription: "--^--!").toBe("---b-")
        scheduler.expectSubscriptions(source.subscriptions).toBe(["^--!", "--^--!"])
        let never = scheduler.cold("a|")
        scheduler.expectSubscriptions(never.subscriptions).toBe([])
        scheduler.flush()
    }

    // MARK: Legends

    @Test func legendsShowOptionalsUnwrapped() {
        let expected: [Recorded<Event<String?>>] = [.next(1, "offline"), .next(2, nil)]
        let actual: [Recorded<Event<String?>>] = [.next(1, "online"), .next(2, nil)]
        let diff = Marbles.diff(expected: expected, actual: actual)
        #expect(diff.description.contains("values: a = \"offline\", b = nil, c = \"online\""), "\(diff)")
        #expect(Marbles.print(actual).legend == "a = \"online\", b = nil")
    }
}
