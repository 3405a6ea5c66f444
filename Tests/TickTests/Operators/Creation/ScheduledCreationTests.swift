import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct ScheduledCreationTests {
    @Test func justOfAndFromOnASchedulerMatchRxTest() {
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        #expect(scheduler.start { Observable.just(42, scheduler: scheduler) }.events == [.next(201, 42), .completed(202)])
        let s2 = TestScheduler(simulateProcessingDelay: true)
        #expect(s2.start { Observable.of(1, 2, scheduler: s2) }.events == [.next(201, 1), .next(202, 2), .completed(203)])
        let s3 = TestScheduler(simulateProcessingDelay: true)
        #expect(s3.start { Observable.from([1, 2], scheduler: s3) }.events == [.next(201, 1), .next(202, 2), .completed(203)])
        let s4 = TestScheduler()
        #expect(s4.start { Observable.from([1, 2], scheduler: s4) }.events == [.next(200, 1), .next(200, 2), .completed(200)])
    }

    @Test func fromIsLazyAndDisposalCancelsThePendingStep() {
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        var pulled = 0
        let endless = (0...).lazy.map { value -> Int in
            pulled += 1
            return value
        }
        #expect(scheduler.start { Observable.from(endless, scheduler: scheduler).take(3) }.events
            == [.next(201, 0), .next(202, 1), .next(203, 2), .completed(203)])
        #expect(pulled == 3)
        let s2 = TestScheduler(simulateProcessingDelay: true)
        #expect(s2.start(disposed: 202) { Observable.from(0..<10, scheduler: s2) }.events == [.next(201, 0)])
        #expect(s2.pendingCount == 0)
    }

    @Test func fromOptional() {
        #expect(TestScheduler().start { Observable.from(optional: 3) }.events == [.next(200, 3), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.from(optional: nil) }.events == [.completed(200)])
        let scheduler = TestScheduler(simulateProcessingDelay: true)
        #expect(scheduler.start { Observable.from(optional: 3, scheduler: scheduler) }.events
            == [.next(201, 3), .completed(202)])
        let s2 = TestScheduler(simulateProcessingDelay: true)
        #expect(s2.start { Observable<Int>.from(optional: nil, scheduler: s2) }.events == [.completed(201)])
    }
}
