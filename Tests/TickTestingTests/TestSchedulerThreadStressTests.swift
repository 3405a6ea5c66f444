import Foundation
import Synchronization
import Testing
import Tick
@testable import TickTesting

/// Issue 16, item 10: a second thread advancing while one advances is told
/// apart from an advance made inside an action.
@Suite(.checksResourceLeaks) struct TestSchedulerThreadStressTests {
    @Test func advanceFromASecondThreadIsReportedAsConcurrent() {
        let scheduler = TestScheduler()
        let insideAction = DispatchSemaphore(value: 0)
        let mayFinish = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        scheduler.scheduleAt(10) {
            insideAction.signal()
            mayFinish.wait()
        }
        // The other thread advances and parks inside the action at frame 10.
        let thread = Thread {
            scheduler.advance(to: 20)
            finished.signal()
        }
        thread.start()
        insideAction.wait()
        withKnownIssue {
            scheduler.advance(to: 30)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("called concurrently from two threads") }
                && !issue.comments.contains { $0.rawValue.contains("from inside an action") }
        }
        mayFinish.signal()
        finished.wait()
        #expect(scheduler.clock == 20)
    }
}

/// The scheduler's clock as `now` reads it without the lock (a sequence
/// lock, `PublishedClock` in TestScheduler+State.swift): a reader on another
/// thread never sees a torn value (each published value has equal high and
/// low words, so a mix of two writes shows) nor one older than the last it
/// saw. The reader reads a fixed number of times, whatever the writer does.
@Suite struct PublishedClockStressTests {
    @Test func aReaderOnAnotherThreadSeesWholeValuesInOrder() {
        let clock = PublishedClock()
        let count = 200_000
        let result = Mutex((torn: 0, backwards: 0))
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                for value in 1...Int128(count) { clock.publish(Duration(totalAttoseconds: value << 64 | value)) }
                return
            }
            var last: Int128 = 0
            var torn = 0
            var backwards = 0
            for _ in 0..<count {
                let value = clock.read().totalAttoseconds
                let high = value >> 64
                let low = value & Int128(UInt64.max)
                if high != low { torn += 1 }
                if low < last { backwards += 1 }
                last = low
            }
            result.withLock { $0 = (torn, backwards) }
        }
        let (torn, backwards) = result.withLock { $0 }
        #expect(torn == 0)
        #expect(backwards == 0)
        #expect(clock.read() == Duration(totalAttoseconds: Int128(count) << 64 | Int128(count)))
    }
}

/// Scheduled entries reach their scheduler through pooled slots
/// (`EntrySlot`, TestScheduler+Entries.swift), taken when a scheduler is
/// made and given back when it goes: threads that make and drop schedulers
/// at once share the pool. Each round, a thread keeps the disposable of its
/// scheduler's first entry (sequence number 0, already run) and disposes it
/// in the next round, once a new scheduler, which may have taken that very
/// slot (here or on another thread), has its own first entry pending with
/// the same sequence number: the stale disposable must cancel nothing, so
/// every scheduler's action runs exactly once. Under the thread sanitizer
/// (CI) this also checks the pool's lock.
@Suite struct EntrySlotPoolStressTests {
    @Test func schedulersMadeAndDroppedOnFourThreadsKeepTheirEntries() {
        let threads = 4
        let perThread = 2_000
        let ran = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var stale: (any Disposable)?
            for _ in 0..<perThread {
                let scheduler = TestScheduler()
                let first = scheduler.scheduleAt(1) { ran.wrappingAdd(1, ordering: .relaxed) }
                stale?.dispose()
                scheduler.run()
                stale = first
            }
        }
        #expect(ran.load(ordering: .relaxed) == threads * perThread)
    }
}
