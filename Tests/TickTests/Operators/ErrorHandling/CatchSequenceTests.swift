import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct CatchSequenceTests {
    @Test func movesToTheNextSourceOnError() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let b = scheduler.createColdObservable([.next(10, 2), .error(20, TestError(2))])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.catch([a, b, c]) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 240)])
        #expect(c.subscriptions == [Subscription(240, 260)])
    }

    @Test func rxSwiftsSequenceLabelIsTheSameOperator() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { Observable.catch(sequence: [a, b]) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 240)])
    }

    @Test func failsWithTheLastErrorAndCompletesWhenEmpty() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.error(10, TestError(1), Int.self)])
        let b = scheduler.createColdObservable([.error(10, TestError(2), Int.self)])
        #expect(scheduler.start { Observable.catch([a, b]) }.events == [.error(220, TestError(2))])
        #expect(TestScheduler().start { Observable<Int>.catch([Observable<Int>]()) }.events == [.completed(200)])
    }

    @Test func pullsSourcesLazilyWithoutRecursion() {
        var made = 0
        let sources = (0..<100_000).lazy.map { index -> Observable<Int> in
            made += 1
            return index < 99_999 ? .error(TestError(index)) : .just(index)
        }
        let res = TestScheduler().start { Observable.catch(sources) }
        #expect(res.events == [.next(200, 99_999), .completed(200)])
        #expect(made == 100_000)
        var pulled = 0
        let stopsEarly = (0..<10).lazy.map { _ -> Observable<Int> in
            pulled += 1
            return .just(1)
        }
        _ = TestScheduler().start { Observable.catch(stopsEarly) }
        #expect(pulled == 1)
    }
}
