import Testing
import Tick
import TickTesting

@Test(.checksResourceLeaks) func smoke() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
    let res = scheduler.start { xs.map { $0 * 10 }.filter { $0 > 20 }.delay(.milliseconds(5), scheduler: scheduler) }
    #expect(res.events == [.next(225, 30), .completed(305)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    let r2 = scheduler.createObserver(Int.self)
    _ = Observable.from(1...).take(3).subscribe(r2)
    #expect(r2.events.map(\.value) == [.next(1), .next(2), .next(3), .completed])
}

@Test(.checksResourceLeaks) func leakCheckSeesNoLeak() {
    let scheduler = TestScheduler()
    let res = scheduler.start { Observable<Int>.interval(.milliseconds(100), scheduler: scheduler) }
    #expect(res.events.map(\.time) == [300, 400, 500, 600, 700, 800, 900])
}

@Test func leakCheckDetectsLeak() async {
    let scope = Resources.Scope()
    let subject = PublishSubject<Int>()
    let d = scope.run { subject.map { $0 }.subscribe(onNext: { _ in }) }
    #expect(scope.live > 0)
    d.dispose()
    #expect(scope.live == 0)
}
