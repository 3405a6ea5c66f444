import Testing
import Tick
import TickTesting

// The example of issue 11, verbatim: a main-actor view model that debounces
// with `Task.sleep`-style code on an injected clock.

@MainActor final class SearchModel {
    private let clock: any Clock<Duration>
    private(set) var requests: [String] = []
    private var task: Task<Void, Never>?
    init(clock: any Clock<Duration>) { self.clock = clock }
    func type(_ query: String) {
        task?.cancel()
        task = Task {
            try? await clock.sleep(for: .milliseconds(300))
            guard !Task.isCancelled else { return }
            requests.append(query)
        }
    }
}

@Suite(.checksResourceLeaks) struct AsyncTargetExampleTests {
    @Test @MainActor func debounce() async {
        let scheduler = TestScheduler()
        let model = SearchModel(clock: scheduler.virtualClock)
        model.type("sw")
        await scheduler.advance(by: .milliseconds(299))
        #expect(model.requests == [])
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.requests == ["sw"])
    }

    @Test @MainActor func typingAgainBeforeTheDeadlineRestartsIt() async {
        let scheduler = TestScheduler()
        let model = SearchModel(clock: scheduler.virtualClock)
        model.type("s")
        await scheduler.advance(by: .milliseconds(299))
        model.type("sw")
        // Cancelling the first task removed its sleep at once; the second
        // task has not run yet (it runs when the test next awaits).
        #expect(scheduler.pendingCount == 0)
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.requests == [])
        await scheduler.advance(by: .milliseconds(298))
        #expect(model.requests == [])
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.requests == ["sw"])
        #expect(scheduler.clock == 599)
        #expect(scheduler.pendingCount == 0)
    }
}
