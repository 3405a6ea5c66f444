import Testing
@_spi(TickInternals) @testable import Tick
@testable import TickTesting

/// The driver's state machine, event by event, without threads: each test
/// puts the machine in a state, sends one event, and checks the action and
/// the state after it (Docs/AsyncAwait.md, "The driver's states").
@Suite struct AsyncDriverStateMachineTests {
    typealias Machine = AsyncDriver.StateMachine
    typealias Job = AsyncDriver.Pending

    /// An iteration of `values` that is never ended here.
    static func iteration() -> AwaitedIteration { AwaitedIteration { _ in } }

    static let root: UInt = 0xA0
    static let t0 = Duration.seconds(100)

    /// The state's name, for comparisons; checks the invariants on the way.
    static func name(_ machine: Machine) -> String {
        #expect(machine.brokenInvariant == nil)
        return switch machine.state {
        case .idle: "idle"
        case .holding: "holding"
        case .draining: "draining"
        case .stalled: "stalled"
        }
    }

    /// A machine whose drain runs `jobs` (enqueued from the driver's own jobs).
    static func draining(_ jobs: [Job]) -> Machine {
        var machine = Machine()
        for job in jobs { _ = machine.enqueue(job, rootOutside: nil) }
        return machine
    }

    /// A machine holding for `root` (a tracked hold unless told otherwise).
    static func holding(tracked: Bool = true) -> (Machine, UInt64) {
        var machine = Machine()
        let generation = machine.registerRoot(root, outside: true, tracked: tracked)
        return (machine, generation)
    }

    /// A machine that gave up after a stall, with an advance that waited.
    static func stalled() -> Machine {
        var machine = draining([Job(address: 1)])
        _ = machine.wait(budget: 10)
        _ = machine.checkStall(now: t0, limit: .seconds(10)) { "stall" }
        _ = machine.checkStall(now: t0 + .seconds(10), limit: .seconds(10)) { "stall" }
        return machine
    }

    // MARK: idle

    @Test func anEnqueueInIdleStartsADrainOnTheJobsQueue() {
        var machine = Machine()
        do {
            let result = machine.enqueue(Job(toMain: true, address: 1), rootOutside: nil)
            #expect(result == .startDrain(onMain: true, reportRootOutside: false))
        }
        #expect(Self.name(machine) == "draining")
    }

    @Test func aWaitInIdleIsQuietAtOnce() {
        var machine = Machine()
        do {
            let result = machine.quiescenceNow(inDriver: false)
            #expect(result == .quiet)
        }
        guard case .resume(.quiet) = machine.wait(budget: 10) else {
            Issue.record("expected an immediate resume")
            return
        }
        #expect(Self.name(machine) == "idle")
    }

    @Test func aRootRunningInsideTheDriverHoldsNothing() {
        var machine = Machine()
        _ = machine.registerRoot(Self.root, outside: false, tracked: false)
        #expect(Self.name(machine) == "idle")
        #expect(machine.roots == [Self.root])
    }

    // MARK: draining

    @Test func theDrainRunsJobsInEnqueueOrderThenFinishes() {
        var machine = Self.draining([Job(address: 1), Job(address: 2)])
        do {
            let result = machine.enqueue(Job(address: 3), rootOutside: nil)
            #expect(result == .queued(reportRootOutside: false))
        }
        var ran: [UInt] = []
        while case .run(let job) = machine.nextInDrain(onMain: false) {
            ran.append(job.address)
            do {
                let result = machine.jobFinished()
                #expect(result == nil)
            }
        }
        #expect(ran == [1, 2, 3])
        #expect(Self.name(machine) == "idle")
        #expect(machine.completed == 3)
    }

    @Test func aJobForTheOtherQueueHandsTheDrainOver() {
        var machine = Self.draining([Job(address: 1), Job(toMain: true, address: 2)])
        guard case .run = machine.nextInDrain(onMain: false) else {
            Issue.record("expected a run")
            return
        }
        _ = machine.jobFinished()
        guard case .handOver(toMain: true) = machine.nextInDrain(onMain: false) else {
            Issue.record("expected a hand-over to the main queue")
            return
        }
        #expect(Self.name(machine) == "draining")
        guard case .run(let job) = machine.nextInDrain(onMain: true) else {
            Issue.record("expected a run")
            return
        }
        #expect(job.address == 2)
    }

    @Test func aWaiterIsResumedWhenTheDrainIsQuiescentThenTheDrainEnds() {
        var machine = Self.draining([Job(address: 1)])
        guard case .waiting(startWatching: true) = machine.wait(budget: 10) else {
            Issue.record("expected a wait that starts the watchdog")
            return
        }
        _ = machine.nextInDrain(onMain: false)
        _ = machine.jobFinished()
        guard case .resume = machine.nextInDrain(onMain: false) else {
            Issue.record("expected the waiter to be resumed")
            return
        }
        guard case .finish = machine.nextInDrain(onMain: false) else {
            Issue.record("expected the drain to end")
            return
        }
        #expect(Self.name(machine) == "idle")
    }

    @Test func theWatchdogIsStartedOnce() {
        var machine = Self.draining([Job(address: 1)])
        guard case .waiting(startWatching: true) = machine.wait(budget: 10) else {
            Issue.record("expected the first wait to start the watchdog")
            return
        }
        do {
            let result = machine.willEnter()
            #expect(result == .enter(startWatching: false))
        }
    }

    @Test func aWaitOverItsBudgetIsResumedWithTheJobsRun() {
        var machine = Self.draining([Job(address: 1), Job(address: 2), Job(address: 3)])
        _ = machine.wait(budget: 2)
        var resumed: Int?
        while resumed == nil, case .run = machine.nextInDrain(onMain: false) {
            resumed = machine.jobFinished()
        }
        #expect(resumed == 3)
        do {
            let result = machine.quiescenceNow(inDriver: false)
            #expect(result == nil)
        }
    }

    @Test func aCallerInsideTheDriverIsQuiescentWhenNothingIsQueued() {
        var machine = Self.draining([Job(address: 1)])
        _ = machine.nextInDrain(onMain: false)
        do {
            let result = machine.quiescenceNow(inDriver: true)
            #expect(result == .quiet)
        }
        do {
            let result = machine.quiescenceNow(inDriver: false)
            #expect(result == nil)
        }
    }

    @Test func aHoldThatBeginsDuringADrainTakesEffectWhenItEnds() {
        var machine = Self.draining([Job(address: 1)])
        _ = machine.registerRoot(Self.root, outside: true, tracked: true)
        #expect(Self.name(machine) == "draining")
        guard case .run = machine.nextInDrain(onMain: false) else {
            Issue.record("the drain still runs what is queued")
            return
        }
        _ = machine.jobFinished()
        _ = machine.nextInDrain(onMain: false)
        #expect(Self.name(machine) == "holding")
        do {
            let result = machine.enqueue(Job(address: 2), rootOutside: nil)
            #expect(result == .queued(reportRootOutside: false))
        }
    }

    @Test func aHoldReleasedDuringADrainIsRecordedAndTheDrainGoesOn() {
        var machine = Self.draining([Job(address: 1)])
        let generation = machine.registerRoot(Self.root, outside: true, tracked: true)
        do {
            let result = machine.releaseHold(generation: generation, .jobEnded)
            #expect(result == .none)
        }
        #expect(machine.holdReleases == [.jobEnded])
        #expect(machine.hold == nil)
        #expect(Self.name(machine) == "draining")
    }

    // MARK: holding

    @Test func heldJobsWaitForTheHoldToEnd() {
        var (machine, generation) = Self.holding()
        do {
            let result = machine.enqueue(Job(address: 1), rootOutside: nil)
            #expect(result == .queued(reportRootOutside: false))
        }
        do {
            let result = machine.enqueue(Job(address: 2), rootOutside: Self.root)
            #expect(result == .queued(reportRootOutside: false))
        }
        do {
            let result = machine.releaseHold(generation: generation, .jobEnded)
            #expect(result == .startDrain(onMain: false))
        }
        #expect(machine.holdReleases == [.jobEnded])
        guard case .run(let first) = machine.nextInDrain(onMain: false) else {
            Issue.record("expected a run")
            return
        }
        #expect(first.address == 1)
    }

    @Test func theRootResumedEndsTheHold() {
        var (machine, _) = Self.holding()
        _ = machine.enqueue(Job(address: 1), rootOutside: nil)
        do {
            let result = machine.enqueue(Job(address: Self.root), rootOutside: nil)
            #expect(result == .startDrain(onMain: false, reportRootOutside: false))
        }
        #expect(machine.holdReleases == [.resumed])
    }

    @Test func anOldHoldsReleaseIsIgnored() {
        var (machine, generation) = Self.holding()
        _ = machine.enqueue(Job(address: 1), rootOutside: nil)
        let newer = machine.registerRoot(Self.root + 1, outside: true, tracked: true)
        #expect(newer != generation)
        do {
            let result = machine.releaseHold(generation: generation, .jobEnded)
            #expect(result == .none)
        }
        #expect(Self.name(machine) == "holding")
        do {
            let result = machine.releaseHold(generation: newer, .jobEnded)
            #expect(result == .startDrain(onMain: false))
        }
    }

    @Test func aHoldEndingWithNothingQueuedIsIdle() {
        var (machine, generation) = Self.holding()
        do {
            let result = machine.releaseHold(generation: generation, .awaited)
            #expect(result == .none)
        }
        #expect(Self.name(machine) == "idle")
    }

    @Test func anUntrackedRootStartingWorkEndsTheHoldAndIsReportedOnce() {
        var (machine, _) = Self.holding(tracked: false)
        do {
            let result = machine.enqueue(Job(address: 1), rootOutside: Self.root)
            #expect(result == .startDrain(onMain: false, reportRootOutside: true))
        }
        #expect(machine.holdReleases == [.untracked])
        do {
            let result = machine.enqueue(Job(address: 2), rootOutside: Self.root)
            #expect(result == .queued(reportRootOutside: false))
        }
    }

    @Test func aWaiterOnHeldJobsWaitsForThemAndGoesWithTheDrain() {
        var (machine, generation) = Self.holding()
        _ = machine.enqueue(Job(address: 1), rootOutside: nil)
        do {
            let result = machine.quiescenceNow(inDriver: false)
            #expect(result == nil)
        }
        guard case .waiting = machine.wait(budget: 10) else {
            Issue.record("expected a wait")
            return
        }
        do {
            let result = machine.releaseHold(generation: generation, .jobEnded)
            #expect(result == .startDrain(onMain: false))
        }
        _ = machine.nextInDrain(onMain: false)
        _ = machine.jobFinished()
        guard case .resume = machine.nextInDrain(onMain: false) else {
            Issue.record("expected the waiter to be resumed")
            return
        }
    }

    @Test func aWaitWhileHoldingNothingIsQuiet() {
        var (machine, _) = Self.holding()
        do {
            let result = machine.quiescenceNow(inDriver: false)
            #expect(result == .quiet)
        }
        guard case .resume(.quiet) = machine.wait(budget: 10) else {
            Issue.record("expected an immediate resume")
            return
        }
    }

    // MARK: stalls

    @Test func aWaitThatSeesNoJobFinishForTheLimitGivesUp() {
        var machine = Self.draining([Job(address: 1), Job(address: 2)])
        _ = machine.nextInDrain(onMain: false)
        _ = machine.wait(budget: 10)
        guard case .none = machine.checkStall(now: Self.t0, limit: .seconds(10), report: { "stall" }) else {
            Issue.record("the first look only marks the time")
            return
        }
        guard case .none = machine.checkStall(now: Self.t0 + .seconds(9), limit: .seconds(10), report: { "stall" }) else {
            Issue.record("9 s is under the limit")
            return
        }
        guard case .abandon(let queued, let sleepers, let waiter) =
            machine.checkStall(now: Self.t0 + .seconds(10), limit: .seconds(10), report: { "stall" })
        else {
            Issue.record("expected the driver to give up")
            return
        }
        #expect(queued.map(\.address) == [2])
        #expect(sleepers.isEmpty)
        #expect(waiter)
        #expect(machine.stallReport == "stall")
        #expect(Self.name(machine) == "stalled")
    }

    @Test func aJobFinishingRestartsTheStallClock() {
        var machine = Self.draining([Job(address: 1), Job(address: 2)])
        _ = machine.wait(budget: 10)
        _ = machine.checkStall(now: Self.t0, limit: .seconds(10)) { "stall" }
        _ = machine.nextInDrain(onMain: false)
        _ = machine.jobFinished()
        guard case .none = machine.checkStall(now: Self.t0 + .seconds(10), limit: .seconds(10), report: { "stall" }) else {
            Issue.record("a job finished: no stall")
            return
        }
        guard case .abandon = machine.checkStall(now: Self.t0 + .seconds(20), limit: .seconds(10), report: { "stall" }) else {
            Issue.record("expected the driver to give up")
            return
        }
    }

    @Test func noStallWithoutSomeoneWaiting() {
        var machine = Self.draining([Job(address: 1)])
        _ = machine.checkStall(now: Self.t0, limit: .seconds(1)) { "stall" }
        guard case .none = machine.checkStall(now: Self.t0 + .seconds(60), limit: .seconds(1), report: { "stall" }) else {
            Issue.record("nobody waits: a long job is no stall")
            return
        }
    }

    @Test func aCallerEnteringCountsAsWaiting() {
        var machine = Self.draining([Job(address: 1)])
        do {
            let result = machine.willEnter()
            #expect(result == .enter(startWatching: true))
        }
        _ = machine.checkStall(now: Self.t0, limit: .seconds(1)) { "stall" }
        guard case .abandon(_, _, false) = machine.checkStall(now: Self.t0 + .seconds(1), limit: .seconds(1), report: { "stall" }) else {
            Issue.record("expected the driver to give up, with no waiter to resume")
            return
        }
        machine.didEnter()
        #expect(machine.entering == 0)
    }

    @Test func aStallEndsEveryListedSleep() {
        let driver = AsyncDriver()
        let sleepers = [Sleeper(driver: driver, deadline: .origin), Sleeper(driver: driver, deadline: .origin)]
        var machine = Self.draining([Job(address: 1)])
        for sleeper in sleepers { _ = machine.addSleeper(sleeper) }
        _ = machine.wait(budget: 10)
        _ = machine.checkStall(now: Self.t0, limit: .seconds(1)) { "stall" }
        guard case .abandon(_, let ended, _) = machine.checkStall(now: Self.t0 + .seconds(1), limit: .seconds(1), report: { "stall" }) else {
            Issue.record("expected the driver to give up")
            return
        }
        #expect(Set(ended.map(ObjectIdentifier.init)) == Set(sleepers.map(ObjectIdentifier.init)))
        #expect(machine.sleepers.count == 0)
    }

    // MARK: stalled (every event after a stall)

    @Test func afterAStallJobsGoToTheRuntime() {
        var machine = Self.stalled()
        do {
            let result = machine.enqueue(Job(address: 9), rootOutside: nil)
            #expect(result == .forward)
        }
        do {
            let result = machine.enqueue(Job(address: 9), rootOutside: Self.root)
            #expect(result == .forward)
        }
        guard case .finish = machine.nextInDrain(onMain: false) else {
            Issue.record("a drain still running stops")
            return
        }
        do {
            let result = machine.jobFinished()
            #expect(result == nil)
        }
    }

    @Test func afterAStallWaitsAndEntriesAreAbandoned() {
        var machine = Self.stalled()
        do {
            let result = machine.quiescenceNow(inDriver: true)
            #expect(result == .abandoned)
        }
        do {
            let result = machine.willEnter()
            #expect(result == .abandoned)
        }
        guard case .resume(.abandoned) = machine.wait(budget: 10) else {
            Issue.record("expected an immediate abandoned")
            return
        }
        guard case .none = machine.checkStall(now: Self.t0 + .seconds(100), limit: .seconds(10), report: { "again" }) else {
            Issue.record("a driver gives up once")
            return
        }
        #expect(machine.stallReport == "stall")
        #expect(Self.name(machine) == "stalled")
    }

    @Test func afterAStallSleepsAreRefusedAndReportedOnce() {
        let driver = AsyncDriver()
        var machine = Self.stalled()
        do {
            let result = machine.addSleeper(Sleeper(driver: driver, deadline: .origin))
            #expect(result == .refused(report: true))
        }
        do {
            let result = machine.addSleeper(Sleeper(driver: driver, deadline: .origin))
            #expect(result == .refused(report: false))
        }
        #expect(machine.sleepers.count == 0)
        do {
            let result = machine.escapedSleep()
            #expect(result == false)
        }
    }

    @Test func afterAStallHoldsAndRootsChangeNothing() {
        var machine = Self.stalled()
        let generation = machine.registerRoot(Self.root, outside: true, tracked: true)
        #expect(machine.hold == nil)
        do {
            let result = machine.releaseHold(generation: generation, .awaited)
            #expect(result == .none)
        }
        #expect(machine.stallReport == "stall")
        #expect(Self.name(machine) == "stalled")
    }

    // MARK: stray events (never a crash)

    @Test func aStrayDrainStops() {
        var machine = Machine()
        guard case .finish = machine.nextInDrain(onMain: true) else {
            Issue.record("no drain is scheduled in idle: a stray one stops")
            return
        }
        do {
            let result = machine.jobFinished()
            #expect(result == nil)
        }
        do {
            let result = machine.releaseHold(generation: nil, .awaited)
            #expect(result == .none)
        }
        #expect(machine.holdReleases.isEmpty)
    }

    @Test func aStrayEntryNeverCountsBelowZero() {
        var machine = Machine()
        machine.didEnter()
        #expect(machine.entering == 0)
    }

    // MARK: sleeps and a stuck test

    @Test func escapedSleepsAreReportedOnce() {
        var machine = Machine()
        do {
            let result = machine.escapedSleep()
            #expect(result)
        }
        do {
            let result = machine.escapedSleep()
            #expect(!result)
        }
    }

    @Test func anIdleDriverWithSleepsIsReportedStuckOncePerEpisode() {
        let driver = AsyncDriver()
        let sleeper = Sleeper(driver: driver, deadline: .origin)
        var machine = Machine()
        _ = machine.addSleeper(sleeper)
        let delay = Duration.seconds(1)
        do {
            let result = machine.checkStuck(now: Self.t0, advancing: false, pending: 1, delay: delay)
            #expect(!result)
        }
        do {
            let result = machine.checkStuck(now: Self.t0 + .milliseconds(999), advancing: false, pending: 1, delay: delay)
            #expect(!result)
        }
        do {
            let result = machine.checkStuck(now: Self.t0 + delay, advancing: false, pending: 1, delay: delay)
            #expect(result)
        }
        do {
            let result = machine.checkStuck(now: Self.t0 + delay * 2, advancing: false, pending: 1, delay: delay)
            #expect(!result)
        }
        // An advance: a new episode.
        do {
            let result = machine.checkStuck(now: Self.t0 + delay * 3, advancing: true, pending: 1, delay: delay)
            #expect(!result)
        }
        do {
            let result = machine.checkStuck(now: Self.t0 + delay * 4, advancing: false, pending: 1, delay: delay)
            #expect(!result)
        }
        do {
            let result = machine.checkStuck(now: Self.t0 + delay * 5, advancing: false, pending: 1, delay: delay)
            #expect(result)
        }
        let next = machine.removeSleeper(sleeper)
        #expect(next == nil)
        do {
            let result = machine.checkStuck(now: Self.t0 + delay * 6, advancing: false, pending: 1, delay: delay)
            #expect(!result)
        }
    }

    @Test func aDrainingDriverIsNeverStuck() {
        let driver = AsyncDriver()
        var machine = Self.draining([Job(address: 1)])
        _ = machine.addSleeper(Sleeper(driver: driver, deadline: .origin))
        do {
            let result = machine.checkStuck(now: Self.t0, advancing: false, pending: 1, delay: .zero)
            #expect(!result)
        }
        do {
            let result = machine.checkStuck(now: Self.t0 + .seconds(5), advancing: false, pending: 1, delay: .zero)
            #expect(!result)
        }
    }

    // MARK: the scheduler goes away

    @Test func iterationsStillWaitingWhenTheSchedulerGoesWithWorkPendingAreEnded() {
        let (waiting, resumed) = (Self.iteration(), Self.iteration())
        var machine = Self.draining([Job(address: 1)])
        machine.iterationWaits(waiting)
        machine.iterationWaits(resumed)
        machine.iterationResumed(resumed)
        let ended = machine.schedulerReleased(pending: 1)
        #expect(ended.count == 1 && ended[0] === waiting)
        #expect(machine.iterations.isEmpty)
    }

    @Test func nothingPendingEndsNoIteration() {
        var machine = Machine()
        machine.iterationWaits(Self.iteration())
        #expect(machine.schedulerReleased(pending: 0).isEmpty)
        #expect(machine.iterations.isEmpty)
    }
}

extension AsyncDriver.Pending {
    /// A stand-in job for the machine: it reads only `toMain` and the
    /// address, and never runs, forwards or dereferences a job, so the
    /// address need not be a real job's.
    init(toMain: Bool = false, address: UInt) {
        self.init(job: unsafeBitCast(address, to: UnownedJob.self), toMain: toMain, original: nil)
    }
}
