import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct CreationTests {
    @Test func rangeEmitsConsecutiveIntegers() {
        let res = TestScheduler().start { Observable<Int>.range(start: 5, count: 3) }
        #expect(res.events == [.next(200, 5), .next(200, 6), .next(200, 7), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.range(start: 5, count: 0) }.events == [.completed(200)])
    }

    @Test func rangeUpToTheTypesMaximumAndOverflow() {
        let res = TestScheduler().start { Observable<Int8>.range(start: 126, count: 2) }
        #expect(res.events == [.next(200, 126), .next(200, 127), .completed(200)])
        // Misuse is reported (a test failure under TickTesting, expected here) and the sequence fails.
        var overflow: [Recorded<Event<Int8>>] = []
        withKnownIssue { overflow = TestScheduler().start { Observable<Int8>.range(start: 126, count: 3) }.events }
        var negative: [Recorded<Event<Int>>] = []
        withKnownIssue { negative = TestScheduler().start { Observable<Int>.range(start: 0, count: -1) }.events }
        #expect(overflow == [.error(200, TickError.argumentOutOfRange)])
        #expect(negative == [.error(200, TickError.argumentOutOfRange)])
    }

    @Test func rangeOnATestSchedulerAndDisposal() {
        let scheduler = TestScheduler()
        let res = scheduler.start { Observable<Int>.range(start: 0, count: 1000, scheduler: scheduler).take(2) }
        #expect(res.events == [.next(200, 0), .next(200, 1), .completed(200)])
    }

    @Test func repeatElementWithTake() {
        let res = TestScheduler().start { Observable.repeatElement("x").take(3) }
        #expect(res.events == [.next(200, "x"), .next(200, "x"), .next(200, "x"), .completed(200)])
    }

    @Test func repeatElementDisposedOnScheduler() {
        let scheduler = TestScheduler()
        var count = 0
        var subscription: (any Disposable)?
        subscription = Observable.repeatElement(1, scheduler: scheduler).subscribe(onNext: { _ in
            count += 1
            if count == 50 { subscription?.dispose() }
        })
        scheduler.run()
        #expect(count == 50)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func generateIteratesWhileConditionHolds() {
        let res = TestScheduler().start {
            Observable.generate(initialState: 1, condition: { $0 < 50 }) { $0 * 3 }
        }
        #expect(res.events == [.next(200, 1), .next(200, 3), .next(200, 9), .next(200, 27), .completed(200)])
    }

    @Test func generateThrows() {
        let condition = TestScheduler().start {
            Observable.generate(initialState: 1, condition: { x -> Bool in if x > 2 { throw TestError(1) }; return true }) { $0 + 1 }
        }
        #expect(condition.events == [.next(200, 1), .next(200, 2), .error(200, TestError(1))])
        let iterate = TestScheduler().start {
            Observable.generate(initialState: 1, condition: { _ in true }) { _ -> Int in throw TestError(2) }
        }
        #expect(iterate.events == [.next(200, 1), .error(200, TestError(2))])
    }

    final class Resource: Disposable, @unchecked Sendable {
        var disposedAt: TestTime?
        let scheduler: TestScheduler
        init(scheduler: TestScheduler) { self.scheduler = scheduler }
        func dispose() { disposedAt = scheduler.clock }
    }

    @Test func usingDisposesResourceWithSubscription() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        var resource: Resource?
        let res = scheduler.start {
            Observable.using({ () -> Resource in
                let r = Resource(scheduler: scheduler)
                resource = r
                return r
            }, observableFactory: { _ in xs.asObservable() })
        }
        #expect(res.events == [.next(210, 1), .completed(230)])
        #expect(resource?.disposedAt == 230)
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func usingDisposalAndFactoryErrors() {
        let scheduler = TestScheduler()
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        var resource: Resource?
        let res = scheduler.start(disposed: 215) {
            Observable.using({ () -> Resource in
                let r = Resource(scheduler: scheduler)
                resource = r
                return r
            }, observableFactory: { _ in xs.asObservable() })
        }
        #expect(res.events == [.next(210, 1)])
        #expect(resource?.disposedAt == 215)
        let s2 = TestScheduler()
        var created: Resource?
        let failed = s2.start {
            Observable<Int>.using({ () -> Resource in
                let r = Resource(scheduler: s2)
                created = r
                return r
            }, observableFactory: { _ in throw TestError(1) })
        }
        #expect(failed.events == [.error(200, TestError(1))])
        #expect(created?.disposedAt == 200)
        let noResource = TestScheduler().start {
            Observable<Int>.using({ () -> Resource in throw TestError(2) }, observableFactory: { _ in .never() })
        }
        #expect(noResource.events == [.error(200, TestError(2))])
    }

    @Test func labelledTimerAndInterval() {
        let scheduler = TestScheduler()
        let timer = scheduler.start { Observable<Int>.timer(dueTime: .milliseconds(50), period: .milliseconds(100), scheduler: scheduler) }
        #expect(timer.events.map(\.time) == [250, 350, 450, 550, 650, 750, 850, 950])
        let s2 = TestScheduler()
        let once = s2.start { Observable<Int>.timer(dueTime: .milliseconds(50), scheduler: s2) }
        #expect(once.events == [.next(250, 0), .completed(250)])
        let s3 = TestScheduler()
        let interval = s3.start(disposed: 500) { Observable<Int>.interval(period: .milliseconds(100), scheduler: s3) }
        // Exactly at the disposal time (500): the disposal was scheduled first, so 3 is not emitted.
        #expect(interval.events == [.next(300, 0), .next(400, 1)])
    }
}
