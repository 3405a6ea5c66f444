import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct AsyncSubjectTests {
    @Test func sendsTheLastElementAtCompletionToEveryone() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230), .next(240, 3)])
        let subject = AsyncSubject<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(late) }
        scheduler.run()
        #expect(early.events == [.next(230, 2), .completed(230)])
        #expect(late.events == [.next(300, 2), .completed(300)])
        #expect(subject.isStopped)
    }

    @Test func emptyErrorAndDisposal() {
        let empty = AsyncSubject<Int>()
        var log: [String] = []
        _ = empty.subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") })
        empty.onCompleted()
        let failing = AsyncSubject<Int>()
        failing.onNext(1)
        failing.onError(TestError(1))
        _ = failing.subscribe(onNext: { log.append("\($0)") }, onError: { log.append("\($0)") })
        let disposed = AsyncSubject<Int>()
        let subscription = disposed.subscribe(onNext: { log.append("late \($0)") })
        #expect(disposed.hasObservers)
        subscription.dispose()
        #expect(!disposed.hasObservers)
        disposed.onNext(5)
        disposed.onCompleted()
        #expect(log == ["completed", "TestError(1)"])
    }
}
