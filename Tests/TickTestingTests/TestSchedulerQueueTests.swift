import Testing
import Tick
@testable import TickTesting

/// The TestScheduler's packed queue (keys of 96-bit due time and 32-bit
/// sequence number, with a wide heap for the rest) against a reference model:
/// run order, the clock inside each action, cancellation, far-away due times
/// that do not pack, and sequence-number epochs crossed every few schedules.
@Suite(.checksResourceLeaks) struct TestSchedulerQueueTests {
    /// One scheduled action of the model.
    struct Planned {
        let id: Int
        let due: Duration
        var cancelled = false
    }

    /// What the actions record when they run: their id and the clock they saw.
    final class RunLog {
        var entries: [(id: Int, now: Duration)] = []
    }

    /// A scheduler driven beside its reference model: every action scheduled
    /// through it records itself, and every check compares what ran, in what
    /// order and at what clock, with the model's answer, sort the due ones
    /// by (due time, order scheduled).
    struct ModelRun {
        let scheduler: TestScheduler
        let log = RunLog()
        var model: [Planned] = []
        var disposables: [Int: any Disposable] = [:]
        var nextID = 0

        mutating func schedule(after delay: Duration) {
            let id = nextID
            nextID += 1
            let (log, scheduler) = (log, scheduler)
            disposables[id] = scheduler.schedule(after: delay) {
                log.entries.append((id, scheduler.now.offset))
            }
            model.append(Planned(id: id, due: scheduler.now.offset + delay))
        }

        /// Cancels each pending action with a chance of one in `oneIn`.
        mutating func cancelSome(oneIn: Int, using rng: inout SeededGenerator) {
            for index in model.indices where !model[index].cancelled && Int.random(in: 0..<oneIn, using: &rng) == 0 {
                model[index].cancelled = true
                disposables[model[index].id]?.dispose()
            }
        }

        /// Advances to `target` and checks what ran; returns how many ran.
        @discardableResult
        mutating func advanceAndCheck(to target: Duration) -> Int {
            let expected = model.filter { !$0.cancelled && $0.due <= target }
                .sorted { ($0.due, $0.id) < ($1.due, $1.id) }
            model.removeAll { $0.cancelled || $0.due <= target }
            log.entries = []
            scheduler.advance(to: SchedulerInstant(offset: target))
            #expect(log.entries.map(\.id) == expected.map(\.id))
            #expect(log.entries.map(\.now) == expected.map(\.due))
            #expect(scheduler.now.offset == target)
            #expect(scheduler.pendingCount == model.count)
            return log.entries.count
        }

        /// Runs the rest and checks it ran in order; returns how many ran.
        @discardableResult
        mutating func runAndCheck() -> Int {
            let expected = model.sorted { ($0.due, $0.id) < ($1.due, $1.id) }
            model = []
            log.entries = []
            scheduler.run()
            #expect(log.entries.map(\.id) == expected.map(\.id))
            #expect(log.entries.map(\.now) == expected.map(\.due))
            #expect(scheduler.pendingCount == 0)
            return log.entries.count
        }
    }

    /// Random rounds of scheduling (near and far due times), cancelling and
    /// advancing; after each round the actions that ran, their order and the
    /// clock each one saw must be the reference's: sort the due ones by (due
    /// time, order scheduled).
    func checkAgainstModel(epochBits: UInt64?, seed: UInt64, radixThreshold: Int? = nil) {
        var rng = SeededGenerator(seed: seed)
        let scheduler = TestScheduler(stepBudget: .max)
        if let radixThreshold {
            scheduler.useQueue(epochBits: epochBits ?? 32, radixThreshold: radixThreshold)
        } else if let epochBits {
            scheduler.useSequenceEpochs(ofBits: epochBits)
        }
        var run = ModelRun(scheduler: scheduler)
        for _ in 0..<200 {
            for _ in 0..<Int.random(in: 0..<20, using: &rng) {
                let delay: Duration
                switch Int.random(in: 0..<10, using: &rng) {
                // Beyond 96 bits of attoseconds: these go to the wide heap.
                case 0: delay = .seconds(Int64.random(in: 1 << 40...1 << 42, using: &rng))
                // Same instant as others: ties are common.
                case 1, 2: delay = .zero
                // Sub-frame: exactness below a millisecond.
                case 3: delay = Duration(secondsComponent: 0, attosecondsComponent: Int64.random(in: 1...5, using: &rng))
                default: delay = .milliseconds(Int.random(in: 0..<50, using: &rng))
                }
                run.schedule(after: delay)
            }
            // Cancel a few of the pending ones.
            run.cancelSome(oneIn: 8, using: &rng)
            run.advanceAndCheck(to: scheduler.now.offset + .milliseconds(Int.random(in: 0..<40, using: &rng)))
        }
        // The far-away rest, in order.
        run.runAndCheck()
    }

    @Test func packedQueueMatchesTheModel() {
        checkAgainstModel(epochBits: nil, seed: 15)
    }

    @Test(arguments: [1, 3, 5] as [UInt64])
    func sequenceEpochsCrossedEveryFewSchedulesKeepTheOrder(epochBits: UInt64) {
        checkAgainstModel(epochBits: epochBits, seed: 15 + epochBits)
    }

    /// The same rounds with the packed entries in the radix heap from the
    /// first one (or the fourth, or the sixteenth: the move from the small
    /// heap happens again and again as the queue drains and refills).
    @Test(arguments: [1, 4, 16] as [Int])
    func radixHeapMatchesTheModel(radixThreshold: Int) {
        checkAgainstModel(epochBits: nil, seed: 150 + UInt64(radixThreshold), radixThreshold: radixThreshold)
    }

    @Test(arguments: [1, 3, 5] as [UInt64])
    func radixHeapAcrossSequenceEpochsKeepsTheOrder(epochBits: UInt64) {
        checkAgainstModel(epochBits: epochBits, seed: 1500 + epochBits, radixThreshold: 2)
    }

    /// The radix heap's buckets as chains of chunks (127 entries each, the
    /// newest one filled through the bucket's cursor, emptied chunks reused):
    /// bursts of hundreds of actions at a few instants (a bucket over several
    /// chunks), cancellations spread through them, advances that stop inside
    /// a burst (an entry taken from the middle of a chain, its hole filled by
    /// the chain's last entry), and refills that take the freed chunks again.
    /// Each action records itself when it runs, so an action run for another
    /// one's entry, twice, or never, or at the wrong time, fails the check
    /// against the model: sort the due ones by (due time, order scheduled).
    @Test(arguments: [1, 1024] as [Int])
    func radixBucketsOfManyChunksMatchTheModel(radixThreshold: Int) {
        var rng = SeededGenerator(seed: 0xC4A1 + UInt64(radixThreshold))
        let scheduler = TestScheduler(stepBudget: .max)
        scheduler.useQueue(radixThreshold: radixThreshold)
        var run = ModelRun(scheduler: scheduler)
        var ranInAll = 0
        for round in 0..<60 {
            let burst = round % 10 == 0 ? 1_500 : Int.random(in: 0..<400, using: &rng)
            for _ in 0..<burst {
                let delay: Duration
                switch Int.random(in: 0..<8, using: &rng) {
                case 0, 1: delay = .milliseconds(2)  // one instant, many chunks
                case 2: delay = .zero
                case 3: delay = Duration(secondsComponent: 0, attosecondsComponent: Int64.random(in: 1...3, using: &rng))
                default: delay = .milliseconds(Int.random(in: 0..<300, using: &rng))
                }
                run.schedule(after: delay)
            }
            run.cancelSome(oneIn: 5, using: &rng)
            ranInAll += run.advanceAndCheck(to: scheduler.now.offset + .milliseconds(Int.random(in: 0..<6, using: &rng)))
        }
        ranInAll += run.runAndCheck()
        // Enough went through the radix heap for chains of several chunks.
        #expect(ranInAll > 5_000)
    }

    /// The done bits (one a sequence number, in a block that starts at 16
    /// words and doubles) across their word and growth boundaries: entries
    /// cancelled on either side of each boundary do not run, their
    /// neighbours do, in scheduling order, and a second cancel or a cancel
    /// after the run changes nothing.
    @Test func cancellationAcrossTheDoneBitsWordAndGrowthBoundaries() {
        let scheduler = TestScheduler(stepBudget: .max)
        var ran: [Int] = []
        var disposables: [any Disposable] = []
        let count = 64 * 16 * 2 + 70
        for index in 0..<count {
            disposables.append(scheduler.scheduleAt(TestTime(10 + index % 7)) { ran.append(index) })
        }
        let cancelled: Set<Int> = [0, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, count - 1]
        for index in cancelled.sorted() { disposables[index].dispose() }
        for index in cancelled.sorted() { disposables[index].dispose() }
        #expect(scheduler.pendingCount == count - cancelled.count)
        scheduler.run()
        let expected = (0..<count).filter { !cancelled.contains($0) }.sorted { (10 + $0 % 7, $0) < (10 + $1 % 7, $1) }
        #expect(ran == expected)
        disposables[1].dispose()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func farDueTimesBesidePackedOnesRunInTimeThenSchedulingOrder() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let far = Duration.seconds(Int64(1) << 40)  // 2⁴⁰ s: over 96 bits of attoseconds
        scheduler.schedule(after: far) { log.append("far 1") }
        scheduler.schedule(after: .milliseconds(1)) { log.append("near") }
        scheduler.schedule(after: far) { log.append("far 2") }
        scheduler.schedule(after: far + Duration(secondsComponent: 0, attosecondsComponent: 1)) { log.append("far + 1 as") }
        scheduler.schedule(after: far - Duration(secondsComponent: 0, attosecondsComponent: 1)) { log.append("far - 1 as") }
        scheduler.run()
        #expect(log == ["near", "far - 1 as", "far 1", "far 2", "far + 1 as"])
        #expect(scheduler.now.offset == far + Duration(secondsComponent: 0, attosecondsComponent: 1))
    }

    @Test func negativeDueTimesPackAndOrderBelowZero() {
        let scheduler = TestScheduler(initialClock: -100)
        var log: [TestTime] = []
        for time in [-3, -50, -3, 0, -99, 7] {
            scheduler.scheduleAt(TestTime(time)) { log.append(scheduler.clock) }
        }
        scheduler.run()
        #expect(log == [-99, -50, -3, -3, 0, 7])
    }
}
