import Testing
import Tick
import TickTesting

/// A hot observable of the marble API (`scheduler.hot(…)`) is set up when
/// the scheduler next starts running: by every way of driving it, the
/// synchronous ones and the asynchronous ones alike (issue 24, item 1).
@Suite(.checksResourceLeaks) struct MarbleHotSetupTests {
    // MARK: The synchronous drivers

    @Test func syncRunEmitsAHotDiagram() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b|")
        scheduler.expect(source).toBe("-a-b|")
        scheduler.run()
    }

    @Test func syncFlushEmitsAHotDiagram() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b|")
        scheduler.expect(source.map { $0.uppercased() }).toBe("-A-B|")
        scheduler.flush()
    }

    @Test func syncAdvanceEmitsAHotDiagramUpToItsTarget() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b|")
        let observer = scheduler.createObserver(String.self)
        let subscription = source.subscribe(observer)
        scheduler.advance(to: 2)
        // One frame before b: only a.
        #expect(observer.events == [.next(1, "a")])
        scheduler.advance(to: 3)
        #expect(observer.events == [.next(1, "a"), .next(3, "b")])
        scheduler.run()
        #expect(observer.events == [.next(1, "a"), .next(3, "b"), .completed(4)])
        subscription.dispose()
    }

    // MARK: The asynchronous drivers

    @Test func asyncRunEmitsAHotDiagram() async {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b|")
        scheduler.expect(source).toBe("-a-b|")
        await scheduler.run()
    }

    @Test func asyncFlushEmitsAHotDiagram() async {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b|")
        scheduler.expect(source.map { $0.uppercased() }).toBe("-A-B|")
        await scheduler.flush()
    }

    @Test func asyncAdvanceEmitsAHotDiagramUpToItsTarget() async {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b|")
        let observer = scheduler.createObserver(String.self)
        let subscription = source.subscribe(observer)
        await scheduler.advance(to: 2)
        #expect(observer.events == [.next(1, "a")])
        await scheduler.advance(to: 3)
        #expect(observer.events == [.next(1, "a"), .next(3, "b")])
        await scheduler.advance(by: 1)
        #expect(observer.events == [.next(1, "a"), .next(3, "b"), .completed(4)])
        subscription.dispose()
    }

    @Test func asyncRunEmitsAHotDiagramToAnAsyncConsumer() async {
        // The hot observable's events reach a task iterating it, each at its
        // own virtual time.
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b|")
        let received = Task { () -> [String] in
            var seen: [String] = []
            do {
                for try await value in source.values { seen.append("\(value)@\(scheduler.clock)") }
            } catch {
                seen.append("error")
            }
            return seen
        }
        await scheduler.run()
        #expect(await received.value == ["a@1", "b@3"])
    }

    @Test func aHotObservableMadeDuringAnAsyncAdvanceStartsAtOnce() async {
        // Made from an action while the scheduler runs, it is not deferred:
        // its events from the current time on are scheduled there and then.
        let scheduler = TestScheduler()
        let observer = scheduler.createObserver(String.self)
        let bag = CompositeDisposable()
        _ = bag.insert(scheduler.scheduleAt(2) {
            _ = bag.insert(scheduler.hot("--a-b|").subscribe(observer))
        })
        await scheduler.run()
        #expect(observer.events == [.next(2, "a"), .next(4, "b"), .completed(5)])
        bag.dispose()
    }
}
