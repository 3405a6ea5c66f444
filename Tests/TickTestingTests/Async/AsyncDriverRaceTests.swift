import Dispatch
import Testing
import Tick
@testable import TickTesting

/// Threads that reach a driver from outside its drain (a root woken by a real
/// wake-up) touch only what the driver guards for them (run under TSan in CI:
/// the suite name starts with "Async").
@Suite(.checksResourceLeaks) struct AsyncDriverRaceTests {
    /// The test body, a root of the scheduler, is resumed from a dispatch
    /// queue (a real wake-up, which Tick does not drive) again and again
    /// while its driver runs another task's jobs. Each resumption passes
    /// through Tick's enqueue hook on the dispatch thread, which asked the
    /// driver whether the job was the switch its drain was running
    /// (`takeSwitch`) by reading the drain's own fields while the drain wrote
    /// them: TSan reported a data race in 3 runs of 3.
    @Test func aBodyWokenByARealWakeUpWhileItsDriverIsBusy() async {
        let scheduler = TestScheduler()
        let yields = Locked(0)
        // The code under test: a task that keeps the driver busy, job after
        // job (each yield is a job the drain runs).
        let busy = Task {
            for _ in 0..<2_000 {
                await Task.yield()
                yields.withLock { $0 += 1 }
            }
        }
        var resumed = 0
        for _ in 0..<50 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { continuation.resume() }
            }
            resumed += 1
        }
        await busy.value
        await scheduler.run()
        #expect(resumed == 50)
        #expect(yields.withLock { $0 } == 2_000)
    }
}
