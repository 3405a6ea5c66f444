import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct BufferingTests {
    @Test func bufferByTimeAndCountWithExactDeadlines() {
        let scheduler = TestScheduler()
        // Buffers of 50ms or 3 elements. [200, 250) holds 1 (249 is one frame before its end).
        // 4 arrives exactly at 250: it goes into [250, 300). 5 and 6 fill that one at 280, which
        // starts [280, 330); it ends empty. 7, one frame after 330, goes into [330, 380), which the
        // completion at 340 emits.
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(249, 1), .next(250, 4), .next(270, 5), .next(280, 6), .next(331, 7), .completed(340),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .milliseconds(50), count: 3, scheduler: scheduler) }
        #expect(res.events == [
            .next(250, [1]), .next(280, [4, 5, 6]), .next(330, []), .next(340, [7]), .completed(340),
        ])
        #expect(xs.subscriptions == [Subscription(200, 340)])
    }

    @Test func bufferErrorDisposalNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
        #expect(scheduler.start { xs.buffer(timeSpan: .milliseconds(50), count: 5, scheduler: scheduler) }.events
            == [.error(220, TestError(1))])
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1)])
        let disposed = s2.start(disposed: 320) { ys.buffer(timeSpan: .milliseconds(50), count: 5, scheduler: s2) }
        #expect(disposed.events == [.next(250, [1]), .next(300, [])])
        #expect(ys.subscriptions == [Subscription(200, 320)])
        let s3 = TestScheduler()
        let empty = s3.start { Observable<Int>.empty().buffer(timeSpan: .milliseconds(50), count: 2, scheduler: s3) }
        #expect(empty.events == [.next(200, []), .completed(200)])
    }

    @Test func windowByTimeAndCount() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(250, 3), .next(260, 4), .completed(270),
        ])
        var windows: [TestableObserver<Int>] = []
        var opened: [TestTime] = []
        let res = scheduler.start {
            xs.window(timeSpan: .milliseconds(50), count: 2, scheduler: scheduler)
                .do(onNext: { window in
                    let observer = scheduler.createObserver(Int.self)
                    windows.append(observer)
                    opened.append(scheduler.clock)
                    _ = window.subscribe(observer)
                })
                .map { _ in 0 }
        }
        // Windows of 50ms or 2 elements: [200: 1, 2, closed by count at 220], [220: 3, 4, closed by
        // count at 260, before its end at 270], [260: closed by the completion at 270].
        #expect(opened == [200, 220, 260])
        #expect(windows.map(\.events) == [
            [.next(210, 1), .next(220, 2), .completed(220)],
            [.next(250, 3), .next(260, 4), .completed(260)],
            [.completed(270)],
        ])
        #expect(res.events.last == .completed(270))
    }

    @Test func windowErrorAndExactDeadline() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(250, 1), .error(260, TestError(1))])
        var windows: [TestableObserver<Int>] = []
        let res = scheduler.start {
            xs.window(timeSpan: .milliseconds(50), count: 10, scheduler: scheduler)
                .do(onNext: { window in
                    let observer = scheduler.createObserver(Int.self)
                    windows.append(observer)
                    _ = window.subscribe(observer)
                })
                .map { _ in 0 }
        }
        // 1 arrives exactly at the first window's end (250): it belongs to the second window.
        #expect(windows.map(\.events) == [[.completed(250)], [.next(250, 1), .error(260, TestError(1))]])
        #expect(res.events == [.next(200, 0), .next(250, 0), .error(260, TestError(1))])
    }

    @Test func groupByRoutesByKey() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
        var groups: [String: TestableObserver<Int>] = [:]
        let res = scheduler.start {
            xs.groupBy { $0 % 2 == 0 ? "even" : "odd" }
                .do(onNext: { group in
                    let observer = scheduler.createObserver(Int.self)
                    groups[group.key] = observer
                    _ = group.subscribe(observer)
                })
                .map(\.key)
        }
        #expect(res.events == [.next(210, "odd"), .next(220, "even"), .completed(250)])
        #expect(groups["odd"]?.events == [.next(210, 1), .next(230, 3), .completed(250)])
        #expect(groups["even"]?.events == [.next(220, 2), .next(240, 4), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func groupByErrorsAndKeySelectorThrows() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        var group: TestableObserver<Int>?
        let res = scheduler.start {
            xs.groupBy { x -> Int in
                if x == 3 { throw TestError(1) }
                return 0
            }
            .do(onNext: { g in
                let observer = scheduler.createObserver(Int.self)
                group = observer
                _ = g.subscribe(observer)
            })
            .map(\.key)
        }
        #expect(res.events == [.next(210, 0), .error(230, TestError(1))])
        #expect(group?.events == [.next(210, 1), .next(220, 2), .error(230, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
        #expect(TestScheduler().start { Observable<Int>.never().groupBy { $0 }.map(\.key) }.events.isEmpty)
    }
}

@Suite(.checksResourceLeaks) struct BufferingMisuseTests {
    @Test func nonPositiveTimeSpanFailsAndCountIsClamped() {
        var buffered: [Recorded<Event<[Int]>>] = []
        withKnownIssue {
            let scheduler = TestScheduler()
            buffered = scheduler.start { Observable.of(1).buffer(timeSpan: .zero, count: 2, scheduler: scheduler) }.events
        }
        #expect(buffered == [.error(200, TickError.argumentOutOfRange)])
        var windows: [Recorded<Event<Int>>] = []
        withKnownIssue {
            let scheduler = TestScheduler()
            windows = scheduler.start { Observable.of(1).window(timeSpan: .milliseconds(-1), count: 2, scheduler: scheduler).map { _ in 0 } }.events
        }
        #expect(windows == [.error(200, TickError.argumentOutOfRange)])
        var clamped: [Recorded<Event<[Int]>>] = []
        withKnownIssue {
            let scheduler = TestScheduler()
            clamped = scheduler.start { Observable.of(1, 2).buffer(timeSpan: .milliseconds(50), count: 0, scheduler: scheduler) }.events
        }
        #expect(clamped == [.next(200, [1]), .next(200, [2]), .next(200, []), .completed(200)])
    }
}
