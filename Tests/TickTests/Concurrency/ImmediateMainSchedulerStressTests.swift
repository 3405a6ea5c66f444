import Dispatch
import Foundation
import Testing
import Tick
import TickTesting

/// `MainScheduler.immediateWhenOnMain`: synchronous on the main queue when
/// none of its work is waiting or running, otherwise queued on the main queue
/// in order. Waits are on `TestExpectation`s fulfilled by the scheduled work
/// itself (the timeout is a safety net, not a timing assertion).
@Suite(.checksResourceLeaks) struct ImmediateMainSchedulerStressTests {
    /// One instance per test (Swift Testing runs tests in parallel, and the
    /// order rule makes one test's queued work delay another's).
    let scheduler = ImmediateMainScheduler()

    @Test func theSharedInstanceIsOne() {
        #expect(MainScheduler.immediateWhenOnMain === MainScheduler.immediateWhenOnMain)
    }

    @Test @MainActor func onMainWithNothingWaitingItRunsAtOnce() {
        var ran = false
        scheduler.schedule { ran = true }
        #expect(ran)
        var ranWithZeroDelay = false
        scheduler.schedule(after: .zero) { ranWithZeroDelay = true }
        #expect(ranWithZeroDelay)
    }

    @Test func offMainItRunsOnTheMainQueue() async {
        let done = TestExpectation()
        let onMain = Locked<Bool?>(nil)
        scheduler.schedule {
            onMain.withLock { $0 = MainQueueProbe.isCurrent }
            done.fulfill()
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(onMain.current == true)
    }

    @Test @MainActor func workScheduledFromInsideItsOwnActionIsQueuedNotNested() async {
        var log: [String] = []
        let done = TestExpectation()
        scheduler.schedule {
            log.append("a starts")
            self.scheduler.schedule {
                log.append("b")
                done.fulfill()
            }
            log.append("a ends")
        }
        #expect(log == ["a starts", "a ends"])
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(log == ["a starts", "a ends", "b"])
    }

    @Test @MainActor func onMainItWaitsBehindWorkQueuedFromABackgroundThread() async {
        let log = Locked<[String]>([])
        let done = TestExpectation()
        let scheduler = self.scheduler
        // `sync`: the main actor (this test) waits, so "background" is
        // queued on the main queue and cannot have run yet.
        DispatchQueue.global().sync {
            _ = scheduler.schedule { log.withLock { $0.append("background") } }
        }
        scheduler.schedule { log.withLock { $0.append("main") } }
        #expect(log.current == [])  // queued behind "background", not run at once
        scheduler.schedule { done.fulfill() }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(log.current == ["background", "main"])
    }

    @Test @MainActor func aQueuedActionThatIsDisposedNeverRuns() async {
        var log: [String] = []
        let done = TestExpectation()
        scheduler.schedule {
            // Queued (this action is running), then disposed before it can run.
            self.scheduler.schedule { log.append("disposed one ran") }.dispose()
            self.scheduler.schedule {
                log.append("kept")
                done.fulfill()
            }
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(log == ["kept"])
    }

    @Test func delayedWorkRunsOnTheMainQueue() async {
        let done = TestExpectation()
        let onMain = Locked<Bool?>(nil)
        scheduler.schedule(after: .microseconds(10)) {
            onMain.withLock { $0 = MainQueueProbe.isCurrent }
            done.fulfill()
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(onMain.current == true)
    }

    /// `observe(on:)` with it, from a `@MainActor` caller on the main queue:
    /// a synchronous source is delivered before `subscribe` returns.
    @Test @MainActor func observeOnItIsSynchronousOnMain() {
        var values: [Int] = []
        let subscription = Observable.from([1, 2, 3]).observe(on: scheduler).subscribe(onNext: { values.append($0) })
        #expect(values == [1, 2, 3])
        subscription.dispose()
    }
}
