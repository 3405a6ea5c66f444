import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct WithUnretainedTests {
    @Test func withUnretainedCompletesOnceTheObjectIsGone() {
        final class Owner { let name = "o" }
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        var owner: Owner? = Owner()
        scheduler.scheduleAt(230) { owner = nil }
        let res = scheduler.start { xs.withUnretained(owner ?? Owner()).map { "\($0.0.name)\($0.1)" } }
        #expect(res.events == [.next(210, "o1"), .next(220, "o2"), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(owner == nil)
        let s2 = TestScheduler()
        let keep = Owner()
        let ys = s2.createHotObservable([.next(210, 1), .completed(250)])
        #expect(s2.start { ys.withUnretained(keep) { "\($0.name)\($1)" } }.events == [.next(210, "o1"), .completed(250)])
    }

    @Test func subscribeWithObject() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        var disposedSeen = false
        _ = Observable.of(1, 2).subscribe(
            with: owner, onNext: { owner, value in owner.log.append("\(value)") },
            onCompleted: { owner in owner.log.append("done") }, onDisposed: { _ in disposedSeen = true })
        _ = Observable<Int>.error(TestError(1)).subscribe(with: owner, onError: { owner, error in owner.log.append("\(error)") })
        #expect(owner.log == ["1", "2", "done", "TestError(1)"])
        #expect(disposedSeen)
        var gone: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var calls = 0
        let subscription = subject.subscribe(with: gone ?? Owner(), onNext: { _, _ in calls += 1 })
        gone = nil
        subject.onNext(1)
        #expect(calls == 0)
        #expect(gone == nil)
        subscription.dispose()
    }
}
