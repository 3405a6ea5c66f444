@_spi(TickInternals) import Tick

// The decisions of `AsyncDriver`, as a state machine: one enum of named
// states, one mutating method per event, each returning the action its owner
// performs. It touches no lock, no thread, no continuation and no job: the
// driver takes its lock, calls a method, and does what the returned action
// says (resuming, running and handing on jobs outside the lock). So every
// transition can be tested without threads (AsyncDriverStateMachineTests).
//
// Concrete, not generic: the jobs are the driver's `Pending` (the tests make
// them with stand-in addresses; the machine reads only `toMain` and
// `address`, and never runs one) and the iterations Tick's
// `AwaitedIteration`. The waiter (the continuation of the advance or run
// waiting for quiescence) is not stored here: there is at most one, and the
// driver keeps it beside the machine, under the same lock; the machine keeps
// its budget and says when to resume it. A generic machine cost a debug
// build of TickTesting its unspecialized code and value witnesses (build
// time, Docs/PerformanceHistory.md, branch build-time6).

extension AsyncDriver {
    /// The driver's states and transitions (Docs/AsyncAwait.md, "The
    /// driver's states").
    ///
    /// Invariants (`brokenInvariant` checks them; the tests ask it after
    /// the events they send):
    /// - `idle`: no job queued, no waiter, no hold. An enqueue starts a drain.
    /// - `holding`: a root runs outside the driver; jobs queue up, none runs,
    ///   no drain is scheduled. A waiter waits only if jobs are queued.
    /// - `draining`: exactly one drain is scheduled or running (main or
    ///   serial queue); it runs the queued jobs in order until none is left.
    ///   A hold that began meanwhile takes effect when the drain ends.
    /// - `stalled`: final. No job is queued, no waiter, no sleeper listed;
    ///   every job goes to the runtime, every sleep and advance fails.
    /// - An iteration of an observable's `values` that waits while this
    ///   driver drives it is listed until it resumes; if the scheduler goes
    ///   away with work pending, each listed one is ended with an error.
    /// - A waiter exists only in `holding` (jobs queued) or `draining`, and
    ///   is resumed exactly once: by the drain reaching quiescence, by the
    ///   step budget, or by a stall.
    struct StateMachine {
        typealias Job = Pending
        typealias Iteration = AwaitedIteration

        enum State {
            /// Nothing queued, nothing running, nobody outside.
            case idle
            /// A root task runs outside the driver: its jobs wait.
            case holding(Holding)
            /// A drain is scheduled or running.
            case draining(Draining)
            /// Gave up after a stall (final; `stallReport` says why).
            case stalled
        }

        /// A root that was running outside the driver when it registered.
        struct Hold: Equatable {
            let root: UInt
            let generation: UInt64
            /// Tick started the job the root runs in, so it sees that job
            /// end (see `AsyncDriver.registerCurrentTask`).
            let tracked: Bool
        }

        /// An advance or run waiting for quiescence (the owner keeps its
        /// continuation: the waiter).
        struct Waiting {
            let budget: Int
            var jobsRun = 0
        }

        struct Holding {
            var hold: Hold
        }

        struct Draining {
            /// A hold that began while the drain runs (effective once it ends).
            var hold: Hold?
        }

        private(set) var state: State = .idle
        /// The advance or run waiting for quiescence, in `holding` (with
        /// jobs queued) or `draining` only. Beside the state, not in it: a
        /// state holding it would be larger, and copied at every event.
        private var waiting: Waiting?
        /// What the stall was (set when the machine enters `stalled`).
        /// Kept out of the state so that the state is a trivial value,
        /// copied without reference counting on every event.
        private(set) var stallReport: String?

        /// The jobs waiting to run, in enqueue order (`head` is the next).
        private var jobs: [Job] = []
        private var head = 0
        /// The root tasks (their addresses).
        private(set) var roots: [UInt] = []
        private var holdGeneration: UInt64 = 0
        /// How each hold ended, in order (for the tests).
        private(set) var holdReleases: [HoldRelease] = []
        /// Jobs finished so far (the watchdog's measure of progress).
        private(set) var completed: UInt64 = 0
        /// Callers of `quiescence` waiting to step into the driver.
        private(set) var entering = 0
        /// The virtual sleeps in progress.
        private(set) var sleepers = SleeperList()
        /// The iterations of `values` waiting for an element.
        private(set) var iterations: [Iteration] = []
        /// The watchdog watches this driver (it is told once).
        private var watched = false
        /// Failures reported once per driver.
        private var reported: Reported = []
        // The watchdog's view: the stall and the stuck test.
        private var stallMark: UInt64 = 0
        // Real time as a `Duration` since a fixed instant (the driver's
        // `epoch`), not a `ContinuousClock.Instant`: that type is resilient,
        // and one field of it would make the whole machine a type of
        // unknown layout, read through the runtime at every event.
        private var quietSince: Duration?
        private var stuckSince: Duration?
        private var stuckMark: (completed: UInt64, pending: Int) = (0, -1)

        struct Reported: OptionSet {
            let rawValue: UInt8
            static var escapedSleep: Reported { Reported(rawValue: 1) }
            static var rootOutside: Reported { Reported(rawValue: 2) }
            static var sleepAfterStall: Reported { Reported(rawValue: 4) }
            static var stuck: Reported { Reported(rawValue: 8) }
        }

        /// `state` is `stalled` (stored: the driver reads it in its drain,
        /// and a computed property would copy the machine there).
        private(set) var isStalled = false

        /// Nothing queued.
        var queueIsEmpty: Bool { head == jobs.count }

        /// The first invariant above that does not hold, if any (for the
        /// tests).
        var brokenInvariant: String? {
            if head > jobs.count { return "the queue's head is past its end" }
            switch state {
            case .idle:
                if !queueIsEmpty { return "idle with jobs queued" }
                if isStalled { return "idle but marked stalled" }
                if waiting != nil { return "idle with a waiter" }
            case .holding:
                if waiting != nil && queueIsEmpty { return "holding a waiter with nothing queued" }
                if isStalled { return "holding but marked stalled" }
            case .draining:
                if isStalled { return "draining but marked stalled" }
            case .stalled:
                if !isStalled || stallReport == nil { return "stalled without its report" }
                if !queueIsEmpty { return "stalled with jobs queued" }
                if sleepers.count > 0 { return "stalled with sleepers listed" }
                if waiting != nil { return "stalled with a waiter" }
            }
            return nil
        }

        /// The hold in force or pending, if any.
        var hold: Hold? {
            switch state {
            case .holding(let holding): holding.hold
            case .draining(let draining): draining.hold
            case .idle, .stalled: nil
            }
        }

        // MARK: Roots and holds

        /// A task becomes a root; `outside`: it runs outside the driver, so
        /// its jobs are held from now on. Returns the hold's generation.
        mutating func registerRoot(_ task: UInt, outside: Bool, tracked: Bool) -> UInt64 {
            roots.append(task)
            guard outside else { return holdGeneration }
            holdGeneration &+= 1
            let hold = Hold(root: task, generation: holdGeneration, tracked: tracked)
            switch state {
            case .idle: state = .holding(Holding(hold: hold))
            case .holding(var holding):
                holding.hold = hold
                state = .holding(holding)
            case .draining(var draining):
                draining.hold = hold
                state = .draining(draining)
            case .stalled: break
            }
            return holdGeneration
        }

        /// What the owner does after a hold ends or a job is enqueued.
        enum StartAction: Equatable {
            case none
            /// Schedule a drain on the main queue or the serial queue.
            case startDrain(onMain: Bool)
        }

        /// The hold (of `generation`, if given) ends for `reason`.
        mutating func releaseHold(generation: UInt64?, _ reason: HoldRelease) -> StartAction {
            switch state {
            case .holding(let holding) where generation == nil || generation == holding.hold.generation:
                holdReleases.append(reason)
                return startDrainingOrIdle()
            case .draining(var draining):
                guard let hold = draining.hold, generation == nil || generation == hold.generation else {
                    return .none
                }
                holdReleases.append(reason)
                draining.hold = nil
                state = .draining(draining)
                return .none
            case .idle, .holding, .stalled:
                return .none
            }
        }

        /// Leaving `holding`: drain what is queued, or else idle (a waiter
        /// only waits with jobs queued, see `wait`).
        private mutating func startDrainingOrIdle() -> StartAction {
            guard !queueIsEmpty else {
                state = .idle
                waiting = nil
                return .none
            }
            state = .draining(Draining(hold: nil))
            return .startDrain(onMain: jobs[head].toMain)
        }

        // MARK: Jobs

        enum EnqueueAction: Equatable {
            /// Stalled: hand the job to the runtime.
            case forward
            /// Queued (a drain will run it, or it waits for a hold to end).
            case queued(reportRootOutside: Bool)
            /// Queued, and a drain must start.
            case startDrain(onMain: Bool, reportRootOutside: Bool)
        }

        /// A job arrives. `rootOutside`: the task enqueuing it, when that is a
        /// task running outside this driver's jobs and not the job itself.
        mutating func enqueue(_ job: Job, rootOutside: UInt?) -> EnqueueAction {
            if isStalled { return .forward }
            var reportOutside = false
            var startsDrain = false
            if let task = rootOutside, hold.map({ $0.root != task || !$0.tracked }) ?? true, roots.contains(task) {
                // A root starts work beside the driver where Tick cannot see
                // it suspend: holding on could hang it (it may await this
                // job), so the hold ends and the failure is reported once.
                switch state {
                case .holding:
                    holdReleases.append(.untracked)
                    state = .draining(Draining(hold: nil))
                    startsDrain = true
                case .draining(var draining) where draining.hold != nil:
                    holdReleases.append(.untracked)
                    draining.hold = nil
                    state = .draining(draining)
                case .idle, .draining, .stalled:
                    break
                }
                reportOutside = !reported.contains(.rootOutside)
                reported.insert(.rootOutside)
            }
            jobs.append(job)
            switch state {
            case .draining, .stalled:
                guard startsDrain else { return .queued(reportRootOutside: reportOutside) }
            case .holding(let holding):
                // The root itself, resumed: it suspended, so everything runs.
                guard job.address == holding.hold.root else { return .queued(reportRootOutside: reportOutside) }
                holdReleases.append(.resumed)
                state = .draining(Draining(hold: nil))
            case .idle:
                state = .draining(Draining())
            }
            return .startDrain(onMain: jobs[head].toMain, reportRootOutside: reportOutside)
        }

        enum DrainStep {
            /// Run this job, then call `jobFinished`.
            case run(Job)
            /// The next job is for the other kind of queue: schedule a
            /// drain there and return (the state stays `draining`).
            case handOver(toMain: Bool)
            /// Quiescent: resume the waiter with `.quiet`, then ask again
            /// (its task usually comes back at once).
            case resume
            /// The drain ends.
            case finish
        }

        /// The drain (on the main queue if `onMain`) asks what to do next.
        mutating func nextInDrain(onMain: Bool) -> DrainStep {
            guard case .draining(let draining) = state else { return .finish }
            if !queueIsEmpty {
                let next = jobs[head]
                if next.toMain != onMain { return .handOver(toMain: next.toMain) }
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                return .run(next)
            }
            if waiting != nil {
                waiting = nil
                return .resume
            }
            state = draining.hold.map { .holding(Holding(hold: $0)) } ?? .idle
            return .finish
        }

        /// A job (or a switch run at once) finished. Returns the jobs run if
        /// the step budget ran out: resume the waiter with
        /// `.budgetExceeded(jobs)`.
        mutating func jobFinished() -> Int? {
            completed &+= 1
            guard case .draining = state, var counted = waiting else { return nil }
            counted.jobsRun += 1
            if counted.jobsRun > counted.budget {
                waiting = nil
                return counted.jobsRun
            }
            waiting = counted
            return nil
        }

        // MARK: Waiting for quiescence

        enum EnterAction: Equatable {
            /// Stalled: nothing to enter.
            case abandoned
            /// Visit the driver's entrance; start the watchdog first if asked.
            case enter(startWatching: Bool)
        }

        /// A caller outside the driver's jobs is about to step in.
        mutating func willEnter() -> EnterAction {
            if isStalled { return .abandoned }
            entering += 1
            return .enter(startWatching: startWatching())
        }

        /// The caller stepped in (or the stall let it through).
        mutating func didEnter() {
            // A stray call (no `willEnter` before it) changes nothing.
            if entering > 0 { entering -= 1 }
        }

        /// Before suspending: is there anything to wait for? `inDriver`: the
        /// caller runs inside one of this driver's jobs (it is the job that
        /// is running, not one to wait for).
        ///
        /// `mutating` though it changes nothing: called on the driver's
        /// stored machine, a non-mutating method would copy the whole
        /// machine first (measured: about 600 instructions a call).
        mutating func quiescenceNow(inDriver: Bool) -> Outcome? {
            switch state {
            case .stalled: return .abandoned
            case .draining: return queueIsEmpty && inDriver ? .quiet : nil
            case .idle, .holding: return queueIsEmpty ? .quiet : nil
            }
        }

        enum WaitAction {
            /// Resume the waiter at once with this outcome.
            case resume(Outcome)
            /// It waits (the owner keeps it until an action says to resume
            /// it); start the watchdog first if asked.
            case waiting(startWatching: Bool)
        }

        /// An advance waits for quiescence, with `budget` jobs at most.
        mutating func wait(budget: Int) -> WaitAction {
            switch state {
            case .stalled:
                return .resume(.abandoned)
            case .idle:
                return .resume(.quiet)
            case .holding:
                guard !queueIsEmpty else { return .resume(.quiet) }
                // Held jobs: they run when the hold ends, and the wait with them.
                waiting = Waiting(budget: budget)
            case .draining:
                waiting = Waiting(budget: budget)
            }
            return .waiting(startWatching: startWatching())
        }

        /// `true` the first time: the owner registers with the watchdog.
        private mutating func startWatching() -> Bool {
            defer { watched = true }
            return !watched
        }

        // MARK: Stalls

        enum StallAction {
            case none
            /// Give up: hand `queued` to the runtime, cancel `sleepers`,
            /// resume the waiter (if `resumeWaiter`) with `.stalled(limit)`.
            case abandon(queued: [Job], sleepers: [Sleeper], resumeWaiter: Bool)
        }

        /// The watchdog's tick: a wait (an advance, or a caller entering)
        /// that has seen no job finish for `limit` gives up. `report` makes
        /// the stall's message (the state keeps it).
        mutating func checkStall(now: Duration, limit: Duration, report: () -> String) -> StallAction {
            let waiter: Bool
            switch state {
            case .holding, .draining: waiter = waiting != nil
            case .idle, .stalled: waiter = false
            }
            guard !isStalled, waiter || entering > 0 else {
                quietSince = nil
                return .none
            }
            if completed != stallMark || quietSince == nil {
                stallMark = completed
                quietSince = now
                return .none
            }
            guard let since = quietSince, now - since >= limit else { return .none }
            let queued = Array(jobs[head...])
            jobs = []
            head = 0
            state = .stalled
            waiting = nil
            isStalled = true
            stallReport = report()
            return .abandon(queued: queued, sleepers: sleepers.removeAll(), resumeWaiter: waiter)
        }

        // MARK: A stuck test

        /// The watchdog's tick: `true` once per episode when the driver has
        /// sat idle, with sleeps or `values` iterations waiting, nothing advancing and `pending`
        /// entries unchanged, for `delay`.
        mutating func checkStuck(now: Duration, advancing: Bool, pending: Int, delay: Duration) -> Bool {
            let idle: Bool
            if case .idle = state { idle = entering == 0 && !advancing && pending > 0 && (sleepers.count > 0 || !iterations.isEmpty) } else { idle = false }
            guard idle else {
                stuckSince = nil
                reported.remove(.stuck)
                return false
            }
            if stuckSince == nil || stuckMark != (completed, pending) {
                stuckSince = now
                stuckMark = (completed, pending)
                return false
            }
            guard !reported.contains(.stuck), let since = stuckSince, now - since >= delay else { return false }
            reported.insert(.stuck)
            return true
        }

        // MARK: Virtual sleeps

        enum SleepAction: Equatable {
            /// Listed; start the watchdog first if asked.
            case listed(startWatching: Bool)
            /// Stalled: the sleep throws at once; report it if `report`.
            case refused(report: Bool)
        }

        mutating func addSleeper(_ sleeper: Sleeper) -> SleepAction {
            if isStalled {
                defer { reported.insert(.sleepAfterStall) }
                return .refused(report: !reported.contains(.sleepAfterStall))
            }
            sleepers.insert(sleeper)
            return .listed(startWatching: startWatching())
        }

        /// Unlists `sleeper`; returns the list's reference to release out of
        /// the lock.
        mutating func removeSleeper(_ sleeper: Sleeper) -> Sleeper? {
            sleepers.remove(sleeper)
        }

        /// A sleep by a task this driver does not drive (and no other live
        /// scheduler's): `true` the first time (report it), never after a
        /// stall (the sleep throws with the stall's report instead).
        mutating func escapedSleep() -> Bool {
            if isStalled || reported.contains(.escapedSleep) { return false }
            reported.insert(.escapedSleep)
            return true
        }

        // MARK: Iterations of an observable's values

        /// An iteration driven here waits for its next element.
        mutating func iterationWaits(_ iteration: Iteration) {
            iterations.append(iteration)
        }

        /// It got its element (or its end).
        mutating func iterationResumed(_ iteration: Iteration) {
            if let index = iterations.lastIndex(where: { $0 === iteration }) { iterations.remove(at: index) }
        }

        // MARK: The scheduler goes away

        /// The scheduler is deallocated with `pending` scheduled actions:
        /// they go with it, so an iteration still waiting would wait
        /// forever. Returns those to end with an error (and report), none if
        /// nothing was pending.
        mutating func schedulerReleased(pending: Int) -> [Iteration] {
            defer { iterations = [] }
            return pending > 0 ? iterations : []
        }

        /// What the driver still has when it is deallocated: the queued jobs
        /// (handed to the runtime: their tasks wait for them) and the
        /// listed sleepers (none while a sleeping task holds the scheduler;
        /// unlinked one by one, not by a chain of releases as deep as the
        /// list).
        mutating func takeAll() -> (queued: [Job], sleepers: [Sleeper]) {
            let queued = Array(jobs[head...])
            jobs = []
            head = 0
            return (queued, sleepers.removeAll())
        }
    }
}
