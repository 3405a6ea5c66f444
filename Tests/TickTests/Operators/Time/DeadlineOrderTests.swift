import Testing
import Tick
import TickTesting

/// The exact-deadline rule does not depend on scheduling order.
///
/// A hot test observable schedules its events when it is created, so at a tie
/// the source event runs before the operator's timer. Here the same events are
/// fed "late": each one is scheduled one frame before it is due, after the
/// operator armed its timer, so the timer runs first. The results must match
/// the hot-observable tests in the other suites.
@Suite(.checksResourceLeaks) struct DeadlineOrderTests {
    /// A source whose events are scheduled one frame before they are due.
    static func lateSource(_ scheduler: TestScheduler, _ events: [Recorded<Event<Int>>]) -> Observable<Int> {
        let subject = PublishSubject<Int>()
        for recorded in events {
            let previousFrame = TestTime(recorded.time.frames - 1)
            scheduler.scheduleAt(previousFrame) {
                scheduler.schedule(after: scheduler.frame) { subject.on(recorded.value) }
            }
        }
        return subject.asObservable()
    }

    @Test func debounce() {
        let scheduler = TestScheduler()
        let xs = Self.lateSource(scheduler, [.next(210, 1), .next(229, 2), .next(249, 3), .next(270, 4), .completed(295)])
        #expect(scheduler.start { xs.debounce(.milliseconds(20), scheduler: scheduler) }.events
            == [.next(249, 2), .next(269, 3), .next(290, 4), .completed(295)])
    }

    @Test func throttle() {
        let scheduler = TestScheduler()
        let xs = Self.lateSource(scheduler, [
            .next(210, 1), .next(215, 2), .next(220, 3), .next(250, 4),
            .next(269, 5), .next(270, 6), .next(291, 7), .completed(300),
        ])
        #expect(scheduler.start { xs.throttle(.milliseconds(20), scheduler: scheduler) }.events == [
            .next(210, 1), .next(230, 3), .next(250, 4), .next(270, 5), .next(290, 6), .next(310, 7), .completed(310),
        ])
    }

    @Test func timeout() {
        let scheduler = TestScheduler()
        let xs = Self.lateSource(scheduler, [.next(210, 1), .next(229, 2), .next(249, 3), .completed(300)])
        #expect(scheduler.start { xs.timeout(.milliseconds(20), scheduler: scheduler) }.events
            == [.next(210, 1), .next(229, 2), .error(249, TickError.timeout)])
    }

    @Test func takeAndSkipFor() {
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .next(229, 2), .next(230, 3), .next(231, 4), .completed(250)]
        let s1 = TestScheduler()
        let xs = Self.lateSource(s1, events)
        #expect(s1.start { xs.take(for: .milliseconds(30), scheduler: s1) }.events
            == [.next(210, 1), .next(229, 2), .completed(230)])
        let s2 = TestScheduler()
        let ys = Self.lateSource(s2, events)
        #expect(s2.start { ys.skip(for: .milliseconds(30), scheduler: s2) }.events
            == [.next(230, 3), .next(231, 4), .completed(250)])
    }

    @Test func buffer() {
        let scheduler = TestScheduler()
        let xs = Self.lateSource(scheduler, [
            .next(249, 1), .next(250, 4), .next(270, 5), .next(280, 6), .next(331, 7), .completed(340),
        ])
        #expect(scheduler.start { xs.buffer(timeSpan: .milliseconds(50), count: 3, scheduler: scheduler) }.events == [
            .next(250, [1]), .next(280, [4, 5, 6]), .next(330, []), .next(340, [7]), .completed(340),
        ])
    }
}
