import Foundation
import Synchronization
import Testing
import Tick
@testable import TickTesting

/// The link that the scheduler's disposables, periodic tasks and async
/// driver use instead of a `weak` reference (`SchedulerLink`, in
/// TestScheduler+Entries.swift): it must read exactly as a `weak` reference
/// would, the oracle here being a real `weak` variable beside it.
@Suite(.checksResourceLeaks) struct TestSchedulerLinkTests {
    @Test func theLinkReadsTheSchedulerWhileItLivesAndNilOnceItIsGone() {
        let link: SchedulerLink
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            link = scheduler.handle
            #expect(link.scheduler === scheduler)
            #expect(oracle === scheduler)
        }
        #expect(oracle == nil)
        #expect(link.scheduler == nil)
    }

    @Test func aStrongReferenceFromTheLinkKeepsTheSchedulerAlive() {
        let link: SchedulerLink
        var kept: TestScheduler?
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            link = scheduler.handle
            kept = link.scheduler
        }
        #expect(oracle != nil)
        #expect(link.scheduler === kept)
        kept = nil
        #expect(oracle == nil)
        #expect(link.scheduler == nil)
    }

    /// Inside the scheduler's deinit (here: an action released with the
    /// scheduler's queue disposes another entry of it), the link reads nil,
    /// as a `weak` reference does once the deinit has started: nothing is
    /// cancelled on a scheduler that is going away, and nothing crashes.
    @Test func disposingFromWhatTheSchedulerReleasesAsItGoesDoesNothing() {
        let link: SchedulerLink
        var seenInDeinit: [Bool] = []
        do {
            let scheduler = TestScheduler()
            link = scheduler.handle
            let other = scheduler.scheduleAt(500) {}
            let probe = DeinitProbe {
                seenInDeinit.append(link.scheduler == nil)
                other.dispose()
            }
            scheduler.scheduleAt(100) { withExtendedLifetime(probe) {} }
            // Driven once (no hint about undriven work), neither action run.
            scheduler.advance(to: 50)
        }
        #expect(seenInDeinit == [true])
        #expect(link.scheduler == nil)
    }

    @Test func aDisposableOutlivingItsSchedulerDisposesWithoutEffect() {
        var disposable: (any Disposable)?
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            disposable = scheduler.scheduleAt(100) {}
            scheduler.advance(to: 50)
        }
        #expect(oracle == nil)
        disposable?.dispose()
        disposable?.dispose()
    }

    @Test func aPeriodicTaskStopsReschedulingOnceItsSchedulerIsGone() {
        var ticks = 0
        var periodic: (any Disposable)?
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            periodic = scheduler.schedulePeriodic(after: .milliseconds(10), period: .milliseconds(10)) { ticks += 1 }
            scheduler.advance(to: 35)
            #expect(ticks == 3)
        }
        #expect(oracle == nil)
        periodic?.dispose()
        #expect(ticks == 3)
    }
}

/// Timers scheduled through the link from other threads while the test
/// lets go of the scheduler. The link enqueues without retaining the
/// scheduler (`SchedulerLink.enqueueOnScheduler`: announced as a reader, so
/// the scheduler's deinit waits for the enqueue to finish): each
/// subscription either lands on the scheduler and goes with its queue, or
/// finds it gone and schedules nothing. Either way its closures are
/// released, nothing runs (the clock never moves), and nothing crashes or
/// races (the suite runs under the thread sanitizer in CI).
@Suite struct TestSchedulerLinkStressTests {
    @Test func timersScheduledWhileTheSchedulerGoesAwayAreAllReleased() {
        let rounds = 100
        let threads = 2
        let perThread = 200
        for _ in 0..<rounds {
            let released = Counter()
            let fired = Counter()
            // Hints about the undriven timers are expected here; kept quiet.
            PendingWorkLog.$hintHandler.withValue({ _, _ in }) {
                var scheduler: TestScheduler? = TestScheduler()
                // Holds the scheduler's link, not the scheduler.
                let timer = Observable<Int>.timer(.seconds(1), scheduler: scheduler!)
                let started = DispatchSemaphore(value: 0)
                let group = DispatchGroup()
                for _ in 0..<threads {
                    DispatchQueue.global().async(group: group) {
                        started.signal()
                        for _ in 0..<perThread {
                            let probe = Released(released)
                            _ = timer.subscribe(onNext: { _ in
                                withExtendedLifetime(probe) {}
                                fired.add()
                            })
                        }
                    }
                }
                for _ in 0..<threads { started.wait() }
                // The last reference, let go of while the threads schedule.
                scheduler = nil
                group.wait()
            }
            #expect(released.value == threads * perThread)
            #expect(fired.value == 0)
        }
    }

    final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.wrappingAdd(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Adds one to its counter when released.
    final class Released: Sendable {
        let counter: Counter
        init(_ counter: Counter) { self.counter = counter }
        deinit { counter.add() }
    }
}

/// Runs `onDeinit` when released.
private final class DeinitProbe {
    let onDeinit: () -> Void
    init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// The slot a scheduled entry's disposable reaches its scheduler through
/// (`EntrySlot`, in TestScheduler+Entries.swift): slots are pooled and
/// reused by later schedulers, so a disposable must reach its own
/// scheduler's generation of the slot and nothing else.
@Suite(.checksResourceLeaks) struct TestSchedulerEntrySlotTests {
    /// The slot's own rule, on a slot taken out of the pool for the test
    /// (so no other scheduler uses it meanwhile): a generation reads its
    /// scheduler while attached, nil once detached, and an earlier
    /// generation never reads the slot's next scheduler.
    @Test func aGenerationReachesOnlyItsOwnScheduler() {
        let (unmanaged, first) = EntrySlot.take()
        let slot = unmanaged.takeUnretainedValue()
        let a = TestScheduler()
        let b = TestScheduler()
        slot.attach(a)
        #expect(slot.scheduler(generation: first) === a)
        #expect(slot.scheduler(generation: first &+ 1) == nil)
        slot.detach()
        #expect(slot.scheduler(generation: first) == nil)
        let second = slot.beginGeneration()
        #expect(second == first &+ 1)
        slot.attach(b)
        #expect(slot.scheduler(generation: first) == nil)
        #expect(slot.scheduler(generation: second) === b)
        slot.detach()
        EntrySlot.give(unmanaged)
    }

    /// End to end: a disposable kept after its scheduler went away, whose
    /// sequence number is also a pending entry's of the next scheduler
    /// (which usually takes the same slot back), cancels nothing there.
    @Test func aDisposableOfAGoneSchedulerCancelsNothingOfTheNext() {
        var kept: [any Disposable] = []
        weak var oracle: TestScheduler?
        do {
            let gone = TestScheduler()
            oracle = gone
            kept.append(gone.scheduleAt(100) {})
            kept.append(gone.scheduleAt(200) {})
            gone.advance(to: 50)
        }
        #expect(oracle == nil)
        let next = TestScheduler()
        var ran: [TestTime] = []
        next.scheduleAt(100) { ran.append(next.clock) }
        next.scheduleAt(200) { ran.append(next.clock) }
        for disposable in kept { disposable.dispose() }
        #expect(next.pendingCount == 2)
        next.run()
        #expect(ran == [100, 200])
    }

    /// While its scheduler lives, a disposable cancels its own entry and
    /// only it, however many schedulers come and go meanwhile.
    @Test func aDisposableCancelsItsEntryAcrossOtherSchedulersComingAndGoing() {
        let scheduler = TestScheduler()
        var ran: [Int] = []
        let first = scheduler.scheduleAt(100) { ran.append(1) }
        scheduler.scheduleAt(100) { ran.append(2) }
        for _ in 0..<10 {
            let other = TestScheduler()
            other.scheduleAt(100) {}
            other.run()
        }
        first.dispose()
        #expect(scheduler.pendingCount == 1)
        scheduler.run()
        #expect(ran == [2])
    }
}
