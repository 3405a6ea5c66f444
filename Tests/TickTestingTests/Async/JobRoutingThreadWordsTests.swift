import Foundation
import Synchronization
import Testing
@testable import TickTesting

/// The per-thread words of Tick's job routing (the C thread-locals of
/// Sources/TickRuntimeHooks/include/TickRuntimeHooks.h, read by
/// `JobRouting.track` and `JobRouting.withDriver` on every job of the
/// process): each thread has its own, a thread has no running job until Tick
/// runs one on it, and a run nested in another puts back the outer one.
@Suite struct JobRoutingThreadWordsTests {
    /// A job value that is never run: `track` only notes its address.
    static func fakeJob(_ address: UInt) -> UnownedJob {
        unsafeBitCast(address, to: UnownedJob.self)
    }

    /// What `body` returns on a thread of its own (joined before returning:
    /// the thread always ends, so this is not a wait on the code under test).
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = body()
            result.withLock { $0 = value }
            ended.signal()
        }
        ended.wait()
        return result.withLock { $0! }
    }

    struct Observed: Sendable {
        var before: UInt64?
        var outer: (address: UInt, run: UInt64)?
        var inner: (address: UInt, run: UInt64)?
        var afterInner: (address: UInt, run: UInt64)?
        var after: UInt64?
        var driver: Bool
    }

    @Test func aNewThreadHasNoRunningJobUntilTickRunsOneAndANestedRunPutsBackTheOuter() {
        let observed = Self.onNewThread { () -> Observed in
            var seen = Observed(driver: JobRouting.currentDriver != nil)
            seen.before = JobRouting.runningJob?.run
            JobRouting.track(Self.fakeJob(0x1000)) { _ in
                seen.outer = JobRouting.runningJob.map { ($0.address, $0.run) }
                JobRouting.track(Self.fakeJob(0x2000)) { _ in
                    seen.inner = JobRouting.runningJob.map { ($0.address, $0.run) }
                }
                seen.afterInner = JobRouting.runningJob.map { ($0.address, $0.run) }
            }
            seen.after = JobRouting.runningJob?.run
            return seen
        }
        #expect(observed.before == nil, "a thread Tick never ran a job on has no running job")
        #expect(observed.driver == false, "nor a driver")
        #expect(observed.outer?.address == 0x1000)
        #expect(observed.inner?.address == 0x2000)
        let (outer, inner) = (observed.outer?.run ?? 0, observed.inner?.run ?? 0)
        #expect(outer > 0 && inner > outer, "each run gets a new number: \(outer), \(inner)")
        #expect(observed.afterInner?.address == 0x1000 && observed.afterInner?.run == outer, "the outer run is back")
        #expect(observed.after == nil, "no job once the run returned")
    }

    @Test func eachThreadSeesOnlyItsOwnRunningJob() {
        let (mine, theOthers) = Self.onNewThread { () -> (UInt?, UInt?) in
            var mine: UInt?
            var theOthers: UInt? = 1
            JobRouting.track(Self.fakeJob(0x3000)) { _ in
                mine = JobRouting.runningJob?.address
                // Another thread, while this one is inside its run.
                theOthers = Self.onNewThread { JobRouting.runningJob?.address }
            }
            return (mine, theOthers)
        }
        #expect(mine == 0x3000)
        #expect(theOthers == nil, "a run is its thread's alone")
    }
}
