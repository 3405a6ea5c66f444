import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct TraitTimerTests {
    @Test func singleAndMaybeTimersSucceedWithZeroAfterTheDueTime() {
        let scheduler = TestScheduler()
        let single = scheduler.start { Single<Int>.timer(.milliseconds(20), scheduler: scheduler) }
        #expect(single.events == [.next(220, 0), .completed(220)])
        let s2 = TestScheduler()
        let maybe = s2.start { Maybe<Int>.timer(.milliseconds(5), scheduler: s2) }
        #expect(maybe.events == [.next(205, 0), .completed(205)])
    }
}

@Suite(.checksResourceLeaks) struct CompletableConcatTests {
    @Test func concatOfASequenceAndOfASecondCompletable() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.completed(10, Never.self)])
        let b = scheduler.createColdObservable([.completed(20, Never.self)])
        let chained = scheduler.start { Completable.concat([a.asCompletable(), b.asCompletable()]) }
        #expect(chained.events == [.completed(230)])
        #expect(b.subscriptions == [Subscription(210, 230)])
        let s2 = TestScheduler()
        let c = s2.createColdObservable([.completed(10, Never.self)])
        let d = s2.createColdObservable([.error(5, TestError(1), Never.self)])
        #expect(s2.start { c.asCompletable().concat(d.asCompletable()) }.events == [.error(215, TestError(1))])
        #expect(TestScheduler().start { Completable.concat([Completable]()) }.events == [.completed(200)])
    }
}

@Suite(.checksResourceLeaks) struct SubscribeWithObjectTests {
    final class Owner {}

    @Test func maybeAndCompletableSubscribeWithAnObject() {
        let owner = Owner()
        var log: [String] = []
        _ = Maybe.just(1).subscribe(
            with: owner, onSuccess: { _, value in log.append("success \(value)") },
            onCompleted: { _ in log.append("completed") }, onDisposed: { _ in log.append("disposed") })
        _ = Maybe<Int>.empty().subscribe(with: owner, onCompleted: { _ in log.append("empty") })
        _ = Completable.error(TestError(1)).subscribe(with: owner, onError: { _, _ in log.append("error") })
        #expect(log == ["success 1", "disposed", "empty", "error"])
    }
}
