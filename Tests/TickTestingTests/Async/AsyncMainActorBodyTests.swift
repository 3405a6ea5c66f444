import Testing
import Tick
@testable import TickTesting

/// A `@MainActor` test body, after an async `advance`/`run`, runs inside the
/// scheduler's driver like a nonisolated one: the nonisolated and detached
/// tasks it starts wait until it suspends, and have run by its next `advance`
/// (Docs/AsyncAwait.md, "How quiescence works", item 5). That holds because
/// the main actor's executor is Tick's from the moment the process loads
/// TickTesting: a body that entered the main actor before (hooks installed
/// lazily) resumed after each advance on the runtime's own main executor,
/// outside the driver, and these tests failed.
@Suite(.checksResourceLeaks) struct AsyncMainActorBodyTests {
    @Test @MainActor func aMainActorBodyRunsInsideTheDriverAfterAnAdvance() async {
        let scheduler = TestScheduler()
        await scheduler.advance(by: 0)
        #expect(JobRouting.currentDriver === scheduler.asyncDriver)
    }

    @Test @MainActor func tasksAMainActorBodyStartsAfterAnAdvanceNeverRunBesideIt() async {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let steps = (1...20).map { "step \($0)" }
        var wrongRounds: [Int] = []
        for round in 0..<500 {
            await scheduler.advance(by: 1)
            log.withLock { $0 = [] }
            Task.detached { log.withLock { $0.append("detached") } }
            Task { @concurrent in log.withLock { $0.append("nonisolated") } }
            for step in steps {
                log.withLock { $0.append(step) }
            }
            // Nothing else ran during the body's synchronous steps...
            let during = log.withLock { $0 }
            await scheduler.advance(by: 0)
            // ...and both tasks ran, after them, by the next advance.
            let after = log.withLock { $0 }
            if during != steps || after.count != 22 || Array(after.prefix(20)) != steps
                || Set(after.suffix(2)) != ["detached", "nonisolated"]
            {
                wrongRounds.append(round)
            }
        }
        #expect(wrongRounds == [])
    }
}
