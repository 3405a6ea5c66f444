import Testing
import Tick
import TickTesting

/// Regression tests for behaviours of issue 12 where Tick differed from
/// RxSwift by mistake. Each one failed before the fix; times in frames.
@Suite(.checksResourceLeaks) struct ConcatMergeParityRegressionTests {
    // MARK: 4. concat of a sequence

    @Test func concatPullsEachSourceOnlyWhenThePreviousOneCompleted() {
        let scheduler = TestScheduler()
        let pulls = Locked<[TestTime]>([])
        let sources = (0..<3).lazy.map { index -> Observable<Int> in
            pulls.withLock { $0.append(scheduler.clock) }
            return scheduler.createColdObservable([.next(10, index), .completed(20)]).asObservable()
        }
        let res = scheduler.start { Observable.concat(sources) }
        #expect(res.events == [.next(210, 0), .next(230, 1), .next(250, 2), .completed(260)])
        #expect(pulls.current == [200, 220, 240])
    }

    /// A lazily generated, recursively defined sequence: each level is `just`
    /// followed by the next level, built only when it is reached.
    static func generated(from start: Int) -> Observable<Int> {
        Observable.concat([0, 1].lazy.map { $0 == 0 ? Observable.just(start) : generated(from: start + 1) })
    }

    @Test func concatOfALazyRecursiveSequenceRuns100Deep() {
        let scheduler = TestScheduler()
        let res = scheduler.start { Self.generated(from: 0).take(100) }
        #expect(res.events == (0..<100).map { .next(200, $0) } + [.completed(200)])
    }

    @Test func mergeAcceptsAnySequence() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(240)])
        let res = scheduler.start { Observable.merge(AnySequence([xs.asObservable(), ys.asObservable()])) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(240)])
    }
}
