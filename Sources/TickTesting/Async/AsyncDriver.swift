#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Foundation
import Synchronization
@_spi(TickInternals) import Tick
internal import TickRuntimeHooks

/// Runs the async work one TestScheduler drives, one job at a time, and
/// tells the scheduler's async `advance`/`run` when nothing is left to run.
///
/// Jobs arrive through `JobRouting`'s hooks and wait in one FIFO queue. A
/// single "drain" runs them in that order: jobs for the main actor on the
/// main dispatch queue, the others on a serial dispatch queue of this
/// driver, never two at once. So the driver always knows whether a job is queued or
/// running, and the order of the work it drives depends only on the order in
/// which jobs were enqueued, never on thread timing.
///
/// *Quiescence* is: no job queued and none running. An async `advance`
/// waits for it (``quiescence(budget:)``) before moving time, between every
/// two scheduled actions and at the end.
///
/// One task is not run by the driver at first: the root that created the
/// scheduler, until its first `await`. While it runs outside, the jobs it
/// starts are held (the `holding` state), so they never run alongside it. A root
/// that runs where Tick cannot see its jobs end is reported instead (see
/// `reportRootOutside`).
final class AsyncDriver: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock` (or, for
    // `switched`, `switchingJob` and `runningJobSlot`, touched only by its
    // drain's thread); `live` is atomic; `link` is set once, before the
    // driver is shared (it is safe to load from any thread).
    //
    // What the driver decides lives in `machine` (AsyncDriver+StateMachine.swift):
    // this class takes the lock, asks the machine, and does what it says.
    // It stays one file, its sections one per kind of event (holding, running
    // jobs, quiescence, stalls, a stuck test, virtual sleeps), so that the
    // lock, the machine and the drain's fields stay `private` to it: split
    // into files, every section would need them module-wide. Its failure
    // messages and its stuck report, which need none of those (they are
    // given values), are in AsyncDriver+Reports.swift.

    /// The scheduler this driver belongs to; the driver takes no jobs once
    /// it is gone. Through the scheduler's link, which reads like a `weak`
    /// reference without moving the scheduler's reference count to a side
    /// table (`SchedulerLink`).
    var scheduler: TestScheduler? { link?.scheduler }
    private var link: SchedulerLink?

    private let lock = Lock()

    /// The driver's state and its transitions (under `lock`; in `deinit`
    /// alone). @exclusivity(unchecked): the lock makes every access
    /// exclusive. Only its mutating methods and stored properties are used
    /// here: a non-mutating method or a computed property called on a stored
    /// struct copies the whole machine first (measured in `async_sleep`).
    @exclusivity(unchecked) private var machine = StateMachine()

    /// The advance or run waiting for quiescence, if any (under `lock`):
    /// set when the machine says it waits, taken when an action says to
    /// resume it (the machine keeps its budget, not its continuation).
    /// @exclusivity(unchecked): the lock makes every access exclusive.
    @exclusivity(unchecked) private var waiter: UnsafeContinuation<Outcome, Never>?

    /// Takes the waiter to resume (under `lock`).
    @inline(__always)
    private func takeWaiter() -> UnsafeContinuation<Outcome, Never>? {
        defer { waiter = nil }
        return waiter
    }

    /// A task that switched executors in the job the non-main drain is
    /// running (see `takeSwitch`), and the address of that job.
    ///
    /// @exclusivity(unchecked): touched only by the thread running this
    /// driver's drain: the drain itself, and `takeSwitch`, which the runtime
    /// calls synchronously from inside the job that drain runs (the two
    /// drains, main and not, never run at once, and hand over through a
    /// dispatch queue).
    @exclusivity(unchecked) private var switched: UnownedJob?
    @exclusivity(unchecked) private var switchingJob: UInt = 0

    /// The job run the drain's thread is in (what `JobRouting.runningJob`
    /// reads there), written only by the drain (one at a time; the main and
    /// the serial drain hand over through a dispatch queue). Allocated by
    /// the first drain: a driver that never runs a job (a synchronous test,
    /// a marble assertion) never pays for it.
    @exclusivity(unchecked) private var runningJobSlot: UnsafeMutablePointer<JobRouting.RunningJob>?

    private var runningJob: UnsafeMutablePointer<JobRouting.RunningJob> {
        if let slot = runningJobSlot { return slot }
        let slot = UnsafeMutablePointer<JobRouting.RunningJob>.allocate(capacity: 1)
        slot.initialize(to: JobRouting.RunningJob(address: 0, run: 0))
        runningJobSlot = slot
        return slot
    }

    /// The jobs this driver has run so far, switches run at once included
    /// (for the tests).
    var jobsRun: UInt64 { lock.withLock { machine.completed } }
    private var serialQueue: DispatchQueue?
    private var stallLimitStorage: Duration = .seconds(10)
    /// Where the test last called an async advance/run, or else created the
    /// scheduler (for reports made outside an advance).
    private var lastSite: CallSite?

    /// The actor whose executor is this driver's queue (see `quiescence`).
    private var entranceStorage: DriverEntrance?
    var entrance: DriverEntrance {
        lock.withLock {
            if let entrance = entranceStorage { return entrance }
            let entrance = DriverEntrance(driver: self)
            entranceStorage = entrance
            return entrance
        }
    }

    /// Makes the current task (if any, and if `registeringCurrentTask`) a
    /// root of this driver.
    func attach(to scheduler: TestScheduler, at site: CallSite, registeringCurrentTask: Bool = true) {
        self.link = scheduler.handle
        // Not shared with another thread yet: no lock needed.
        lastSite = site
        creationSite = site
        live.store(true, ordering: .releasing)
        Self.watchesIterations
        // Outside a task (a command-line tool, a benchmark) there is nothing
        // to drive yet (the hooks went in at load, or go in at the first
        // async use where the load-time initializer did not run).
        guard registeringCurrentTask, JobRouting.currentTaskAddress != nil else { return }
        registerCurrentTask()
    }

    /// Where the scheduler was created (for the one-scheduler-per-task report).
    private(set) var creationSite: CallSite?

    deinit {
        let (queued, asleep) = machine.takeAll()
        withExtendedLifetime(asleep) {}
        runningJobSlot?.deallocate()
        // A driver that never had a root task (no async use, outside a task)
        // has nothing to remove: no need to take the routing table's lock.
        let roots = machine.roots
        if !roots.isEmpty { JobRouting.roots.remove(tasks: roots, of: self) }
        for task in roots { JobRouting.releaseTask(task) }
        // Jobs still queued here (held while a root ran outside the driver,
        // when the scheduler went away) belong to tasks that are waiting for
        // them: hand them to the runtime, never drop them.
        for pending in queued { pending.forward() }
    }

    /// `true` while the scheduler is alive: only then are jobs routed here.
    /// Asked on every enqueue: an atomic flag, cleared by the scheduler's
    /// deinit, rather than a load of the weak reference (and a retain and a
    /// release of the scheduler, through its side table).
    @inline(__always)
    var isLive: Bool { live.load(ordering: .acquiring) }
    private let live = Atomic<Bool>(false)

    /// Called by the scheduler's deinit: no job is routed here from now on.
    /// An iteration of an observable's `values` that a task this driver
    /// drives is still awaiting, with `pending` actions going away with the
    /// scheduler, would wait forever: it is reported, and ends with
    /// `TestSchedulerReleasedError`.
    func schedulerGone(pending: Int) {
        live.store(false, ordering: .releasing)
        // No iteration ever waited here (a synchronous test, a marble
        // assertion): nothing to look at, no lock to take.
        guard hadIterations.load(ordering: .acquiring) else { return }
        let (stranded, site) = lock.withLock { (machine.schedulerReleased(pending: pending), lastSite) }
        guard !stranded.isEmpty else { return }
        TestFailureReporter.fail(
            Self.releasedReport(created: creationSite, stranded: stranded.count, pending: pending), at: site ?? CallSite())
        for iteration in stranded { iteration.finish(throwing: TestSchedulerReleasedError(pending: pending)) }
    }

    /// An iteration of `values` waited here once (see `schedulerGone`).
    private let hadIterations = Atomic<Bool>(false)

    /// Tells Tick's `values` iterations to say when they wait (once).
    private static let watchesIterations: Void = {
        _ = AwaitedIteration.observer.storeIfNil(
            AwaitedIteration.Observer { iteration in
                guard let driver = AsyncDriver.drivingCurrentContext else { return nil }
                driver.hadIterations.store(true, ordering: .releasing)
                driver.lock.withLock { driver.machine.iterationWaits(iteration) }
                return { driver.lock.withLock { driver.machine.iterationResumed(iteration) } }
            })
    }()

    /// The live driver the calling code runs under: inside one of its jobs,
    /// or in one of its root tasks.
    private static var drivingCurrentContext: AsyncDriver? {
        if let current = JobRouting.currentDriver { return current.isLive ? current : nil }
        guard let task = JobRouting.currentTaskAddress,
            JobRouting.Roots.filter & JobRouting.Roots.bit(task) != 0
        else { return nil }
        return JobRouting.roots.driver(task: task, job: 0)
    }

    /// `true` if the runtime hooks are installed (the driver can drive anything).
    var isActive: Bool { JobRouting.installation.isActive }

    /// Makes the current task a root: every job it enqueues, and its own
    /// jobs, are driven here.
    ///
    /// A root that is running outside the driver (the test body before its
    /// first `await`) runs in parallel with whatever the driver runs, so the
    /// driver holds the jobs it gets from then on (`releaseHold`).
    func registerCurrentTask() {
        guard isActive, let task = JobRouting.currentTaskAddress else { return }
        if JobRouting.roots.isRoot(task: task, of: self) { return }
        let outside = JobRouting.currentDriver !== self
        // Keep the task object alive while it is a root: otherwise, once it
        // ends, a new task (of another test running in parallel) could get
        // its address and have its jobs taken for this driver's.
        JobRouting.retainTask(task)
        // The run of the job Tick started on this thread (it passed through
        // Tick's hooks, see `JobRouting.track`): the task runs inside it, its
        // own job or one that runs it (a default actor's), so by the time
        // that run returns the task has suspended. The hold ends exactly then.
        let tracked = outside ? JobRouting.runningJob?.run : nil
        let generation = lock.withLock { machine.registerRoot(task, outside: outside, tracked: tracked != nil) }
        if let tracked { JobRouting.holds.add(run: tracked, driver: self, generation: generation) }
        JobRouting.roots.add(task: task, driver: self)
    }

    /// The live driver other than this one that the calling code belongs to
    /// (it runs one of its jobs, or is one of its roots), if any.
    private var otherDriverOfCurrentContext: AsyncDriver? {
        if let current = JobRouting.currentDriver {
            return current !== self && current.isLive ? current : nil
        }
        guard let task = JobRouting.currentTaskAddress,
            let other = JobRouting.roots.driver(task: task, job: 0), other !== self
        else { return nil }
        return other
    }

    /// Reports (each time) a virtual sleep on this scheduler's clock by a
    /// task that another live TestScheduler drives, and returns `true`: the
    /// sleep then throws at once. Only that other scheduler's advance waits
    /// for the task, so this one's would race with the sleep, and a test
    /// awaiting the task could hang.
    private func reportSecondScheduler(other: AsyncDriver) {
        let site = lock.withLock { lastSite }
        TestFailureReporter.fail(Self.secondSchedulerReport(created: other.creationSite), at: site ?? CallSite())
    }

    // MARK: Holding jobs while a root runs outside the driver

    /// How each hold of this driver ended, in order (see the machine's
    /// `holding` state: a root task that was running outside the driver
    /// when it registered holds the jobs it starts until it suspends).
    var holdReleases: [HoldRelease] { lock.withLock { machine.holdReleases } }

    /// Ends the hold and starts running the held jobs (only the hold of
    /// `generation`, if given).
    ///
    /// A root's hold ends when it waits for quiescence, is itself enqueued
    /// (it suspended and is resumed), or the job it is running ends (it
    /// suspended on something else, such as `await task.value` on a held
    /// task). Tick sees that job end when it started the job itself (the
    /// hold is `tracked`: the job passed through its hooks, see
    /// `JobRouting.track`), which, with the hooks installed when the process
    /// loads TickTesting, is every job of a test body on the default
    /// executors. A root whose job Tick did not start cannot be held
    /// exactly: its first held job ends the hold with a failure
    /// (`reportRootOutside`), and the jobs run.
    func releaseHold(generation: UInt64? = nil, _ reason: HoldRelease) {
        lock.lock()
        let action = machine.releaseHold(generation: generation, reason)
        guard case .startDrain(let onMain) = action else {
            lock.unlock()
            return
        }
        let queue = serialQueueLocked()
        lock.unlock()
        startDrain(onMain: onMain, queue: queue)
    }

    /// `true` if the calling code runs under this driver: inside one of its
    /// jobs, or in one of its root tasks.
    var isDrivingCurrentContext: Bool {
        if JobRouting.isCurrentDriver(self) { return true }
        if JobRouting.currentDriver != nil { return false }
        guard let task = JobRouting.currentTaskAddress else { return false }
        return JobRouting.roots.isRoot(task: task, of: self)
    }

    /// The longest a single job may run (real time) before the driver gives up.
    var stallLimit: Duration {
        get { lock.withLock { stallLimitStorage } }
        set { lock.withLock { stallLimitStorage = newValue } }
    }

    func noteSite(_ site: CallSite) { lock.withLock { lastSite = site } }

    private var checkingAsyncStorage = false
    /// Set while an async `run()` checks the marble expectations (the
    /// expectations on async sequences need it).
    var checkingAsync: Bool {
        get { lock.withLock { checkingAsyncStorage } }
        set { lock.withLock { checkingAsyncStorage = newValue } }
    }

    // MARK: Running jobs

    /// Takes `job` to run right after the job this thread's non-main drain
    /// is running, when it is that very job: the task is switching
    /// executors.
    ///
    /// Where Tick's executor is not the process's default (the fallback in
    /// DefaultExecutor.swift; with it, no task switches here), the driver
    /// runs a non-main job with its task executor as the current one, and a
    /// task without a preferred task executor then
    /// switches (suspends and enqueues itself) whenever it enters or
    /// leaves a nonisolated async function; without Tick it would go on
    /// running on the same thread. So the switch's job runs next, as if
    /// there had been no switch, instead of after the jobs queued
    /// meanwhile, and without the queue (about twenty switches a
    /// `virtualClock` sleep and its wake-up).
    ///
    /// The thread is checked first: `switchingJob` and `switched` belong to
    /// the drain's thread, and any other thread (a root woken by a real
    /// wake-up, a DispatchQueue resuming a continuation) must not read them
    /// while the drain writes them (the data race TSan reported when a test
    /// body was resumed from a dispatch queue while its driver was busy:
    /// `AsyncDriverRaceTests`).
    func takeSwitch(_ job: UnownedJob) -> Bool {
        guard JobRouting.isCurrentDriver(self), switchingJob == JobRouting.address(of: job), switched == nil
        else { return false }
        switched = job
        return true
    }

    func enqueue(
        _ job: UnownedJob, toMain: Bool, original: JobRouting.Original?, entrance: UnownedSerialExecutor? = nil
    ) {
        let pending = Pending(job: job, toMain: toMain, original: original, entrance: entrance)
        // A job enqueued from outside this driver's jobs by one of its roots
        // (not the root's own job: that is the root suspending) is work the
        // root starts while running beside the driver: fine while a tracked
        // hold keeps it queued, a race otherwise (see `reportRootOutside`).
        let rootOutside = JobRouting.currentDriver !== self
            ? JobRouting.currentTaskAddress.flatMap { $0 != JobRouting.address(of: job) ? $0 : nil } : nil
        lock.lock()
        switch machine.enqueue(pending, rootOutside: rootOutside) {
        case .forward:
            lock.unlock()
            pending.forward()
        case .queued(let reportOutside):
            lock.unlock()
            if reportOutside { reportRootOutside() }
        case .startDrain(let onMain, let reportOutside):
            let queue = serialQueueLocked()
            lock.unlock()
            if reportOutside { reportRootOutside() }
            startDrain(onMain: onMain, queue: queue)
        }
    }

    /// Reports, once per scheduler, a root that started async work while it
    /// ran outside the driver in a job Tick did not start: Tick cannot tell
    /// when it suspends, so that work runs beside it, in an order that
    /// depends on thread timing. Called from the enqueue, in the root's own
    /// context (so the failure goes to the test running it).
    private func reportRootOutside() {
        let site = lock.withLock { lastSite }
        TestFailureReporter.fail(
            "A task this TestScheduler drives (the test body, or a task that used the scheduler's async API) started async work while running where Tick cannot see when it suspends: on a custom executor or actor executor, with a task-executor preference, or in a job that began before Tick's Concurrency hooks were installed. That work runs beside it, in an order that depends on thread timing, so Tick reports it instead of racing silently. Run the test body on the default executors (nonisolated, a default actor, or @MainActor); see Docs/AsyncAwait.md, \"What escapes\".",
            at: site ?? CallSite())
    }

    private func serialQueueLocked() -> DispatchQueue {
        if let serialQueue { return serialQueue }
        let queue = DispatchQueue(label: "Tick.TestScheduler.async")
        serialQueue = queue
        return queue
    }

    private func startDrain(onMain: Bool, queue: DispatchQueue) {
        (onMain ? DispatchQueue.main : queue).async { self.drain(onMain: onMain) }
    }

    /// Runs queued jobs in order while they are for this thread's kind (main
    /// or not); hands over to the other queue when the next one is not.
    private func drain(onMain: Bool) {
        tick_set_current_driver(Unmanaged.passUnretained(self).toOpaque())
        // The thread's running job is this drain's slot for the whole drain
        // (see `JobRouting.track(_:in:_:)`).
        let outerRunningJob = tick_exchange_running_job_slot(runningJob)
        defer {
            tick_exchange_running_job_slot(outerRunningJob)
            tick_set_current_driver(nil)
        }
        lock.lock()
        while true {
            switch machine.nextInDrain(onMain: onMain) {
            case .run(let next):
                lock.unlock()
                if let entrance = next.entrance {
                    switchingJob = JobRouting.address(of: next.job)
                    JobRouting.track(next.job, in: runningJob) { $0.runSynchronously(on: entrance) }
                } else if next.toMain {
                    JobRouting.track(next.job, in: runningJob) { $0.runSynchronously(on: RoutingMainExecutor.reference) }
                } else {
                    switchingJob = JobRouting.address(of: next.job)
                    runNonMain(next.job)
                }
                lock.lock()
                jobFinished()
                // The task switched executors: it goes on at once (`takeSwitch`).
                while let job = switched {
                    switched = nil
                    if machine.isStalled {
                        switchingJob = 0
                        lock.unlock()
                        JobRouting.runOnGlobalQueue(job)
                        lock.lock()
                        break
                    }
                    lock.unlock()
                    runNonMain(job)
                    lock.lock()
                    jobFinished()
                }
                switchingJob = 0
            case .handOver(let toMain):
                let queue = serialQueueLocked()
                lock.unlock()
                startDrain(onMain: toMain, queue: queue)
                return
            case .resume:
                // Quiescent. The waiting advance/run goes on, and its task
                // comes back to this driver: keep draining, so that it runs
                // here without a new drain being scheduled.
                let waiting = takeWaiter()
                lock.unlock()
                waiting?.resume(returning: .quiet)
                lock.lock()
            case .finish:
                lock.unlock()
                return
            }
        }
    }

    /// Runs a job that is not for the main actor so that work enqueued on
    /// "the current executor" (Task.yield) comes back here: with no task
    /// executor where Tick's is the process's default executor (the yield
    /// reaches it as the default), else with Tick's task executor as the
    /// current one (a task then switches executors entering and leaving
    /// nonisolated async functions, see `takeSwitch`).
    @inline(__always)
    private func runNonMain(_ job: UnownedJob) {
        if isDefaultExecutor {
            JobRouting.track(job, in: runningJob) { $0.runSynchronously(on: JobRouting.genericExecutor) }
        } else {
            JobRouting.track(job, in: runningJob) {
                $0.runSynchronously(isolatedTo: JobRouting.genericExecutor, taskExecutor: DrivenTaskExecutor.reference)
            }
        }
    }

    /// `JobRouting.installation.isDefaultExecutor`, read once per driver.
    private let isDefaultExecutor = JobRouting.installation.isDefaultExecutor

    /// Counts a job run (under `lock`; may release it to end a wait over
    /// its budget).
    @inline(__always)
    private func jobFinished() {
        if let jobs = machine.jobFinished() {
            let waiting = takeWaiter()
            lock.unlock()
            waiting?.resume(returning: .budgetExceeded(jobs))
            lock.lock()
        }
    }

    // MARK: Quiescence

    /// Returns once no job of this driver is queued or running (the caller's
    /// own job excepted: it is the one waiting).
    ///
    /// - Parameter budget: the most jobs that may run while waiting; past it
    ///   the wait ends with `.budgetExceeded`.
    nonisolated(nonsending) func quiescence(budget: Int) async -> Outcome {
        // The caller waits from here on: what it started may run.
        releaseHold(.awaited)
        // A caller outside this driver's jobs (the test body on its own
        // thread, or a root running inside another driver's job) first
        // steps into the driver: a visit to an actor whose executor is this
        // driver's queue always suspends the caller and enqueues it here, and
        // its return to its own isolation is then enqueued from inside this
        // driver's job, so it comes back here too. From then on the caller
        // runs inside the driver, never beside the jobs it starts.
        if !JobRouting.isCurrentDriver(self), willEnter() {
            await entrance.visit()
            didEnter()
        }
        // Inside one of this driver's jobs with nothing queued, the caller
        // is the only work there is: already quiescent.
        if let outcome = quiescenceNow() { return outcome }
        return await withUnsafeContinuation(isolation: #isolation) { continuation in
            wait(continuation, budget: budget)
        }
    }

    // The steps of `quiescence`, each a synchronous function: the machine
    // is never touched from the async function's own frame (which would
    // copy it there).

    /// `true` if the caller is to step into the driver.
    private func willEnter() -> Bool {
        lock.lock()
        let action = machine.willEnter()
        lock.unlock()
        guard case .enter(let watch) = action else { return false }
        if watch { Watchdog.shared.watch(self) }
        return true
    }

    private func didEnter() {
        lock.lock()
        machine.didEnter()
        lock.unlock()
    }

    private func quiescenceNow() -> Outcome? {
        lock.lock()
        let outcome = machine.quiescenceNow(inDriver: JobRouting.isCurrentDriver(self))
        lock.unlock()
        return outcome
    }

    private func wait(_ continuation: UnsafeContinuation<Outcome, Never>, budget: Int) {
        lock.lock()
        switch machine.wait(budget: budget) {
        case .resume(let outcome):
            lock.unlock()
            continuation.resume(returning: outcome)
        case .waiting(let watch):
            waiter = continuation
            lock.unlock()
            if watch { Watchdog.shared.watch(self) }
        }
    }

    // MARK: Stalls

    /// The real time the state machine counts from (see its `quietSince`).
    private static let epoch = ContinuousClock.now

    /// Called by the watchdog: gives up if a wait has seen no job finish for
    /// the stall limit.
    func checkStall(now: ContinuousClock.Instant) {
        lock.lock()
        let limit = stallLimitStorage
        let site = lastSite
        let action = machine.checkStall(now: now - Self.epoch, limit: limit) { Self.stallReport(limit: limit, site: site) }
        let waiting: UnsafeContinuation<Outcome, Never>?
        if case .abandon(_, _, true) = action { waiting = takeWaiter() } else { waiting = nil }
        lock.unlock()
        // Give up: from now on every job goes straight to the runtime's
        // executors, starting with the queued ones, so the test can go on
        // (and fail) instead of hanging behind the stuck job. Every virtual
        // sleep still pending throws (the advance that would wake it will
        // not run: any use after a stall fails at once), so a test awaiting a
        // sleeping task gets its value instead of hanging.
        guard case .abandon(let queued, let asleep, _) = action else { return }
        for pending in queued { pending.forward() }
        for sleeper in asleep { sleeper.cancel() }
        waiting?.resume(returning: .stalled(limit))
    }

    /// What the stall was (set when the driver gave up), repeated by every
    /// later use of the scheduler's async API.
    var stallReport: String? { lock.withLock { machine.stallReport } }

    /// Reports a virtual sleep started after a stall (it throws
    /// `CancellationError` at once; the machine says to report it once per
    /// scheduler).
    private func reportSleepAfterStall() {
        let (site, report) = lock.withLock { (lastSite, machine.stallReport) }
        TestFailureReporter.fail(Self.sleepAfterStallReport(report), at: site ?? CallSite())
    }

    // MARK: A stuck test

    /// How long the driver must have been idle with virtual sleeps pending,
    /// and no advance or run in progress, before it reports that the test
    /// looks stuck (real time: a diagnostic, like the stall limit).
    static let stuckReportDelay: Duration = .seconds(1)

    /// Where a stuck report goes: standard error unless a test of Tick
    /// replaces it (`@testable`).
    var onStuck: @Sendable (String) -> Void {
        get { lock.withLock { onStuckStorage } }
        set { lock.withLock { onStuckStorage = newValue } }
    }
    private var onStuckStorage: @Sendable (String) -> Void = { report in
        FileHandle.standardError.write(Data((report + "\n").utf8))
    }

    /// Called by the watchdog: reports, once per episode, a scheduler that
    /// sits idle with virtual sleeps pending while no advance or run is in
    /// progress (Docs/AsyncAwait.md, "A stuck test"). It never fails a test:
    /// a test may be waiting for real work meanwhile.
    func checkStuck(now: ContinuousClock.Instant) {
        guard let scheduler, isLive else { return }
        let (advancing, pending) = scheduler.lock.withLock { (scheduler.state.isAdvancing, scheduler.state.pending) }
        lock.lock()
        guard machine.checkStuck(now: now - Self.epoch, advancing: advancing, pending: pending, delay: Self.stuckReportDelay) else {
            lock.unlock()
            return
        }
        let roots = machine.roots
        let asleep = machine.sleepers.map { (deadline: $0.deadline, isRoot: roots.contains($0.task)) }
        let iterations = machine.iterations.count
        let site = lastSite ?? CallSite()
        let report = onStuckStorage
        lock.unlock()
        report(
            Self.stuckReport(
                asleep: asleep, iterations: iterations, pending: pending, site: site, scheduler: scheduler))
    }

    // MARK: Virtual sleeps

    /// Lists `sleeper` (a stall wakes every listed sleep, with an error;
    /// the stuck-test report says what is pending); `false` after a stall
    /// (the sleep must not start; reported once).
    func addSleeper(_ sleeper: Sleeper) -> Bool {
        lock.lock()
        let action = machine.addSleeper(sleeper)
        lock.unlock()
        switch action {
        case .listed(let watch):
            if watch { Watchdog.shared.watch(self) }
            return true
        case .refused(let report):
            if report { reportSleepAfterStall() }
            return false
        }
    }

    /// Unlists `sleeper` (once it is woken or cancelled).
    func removeSleeper(_ sleeper: Sleeper) {
        lock.lock()
        let next = machine.removeSleeper(sleeper)
        lock.unlock()
        // The list's reference goes out of the lock.
        withExtendedLifetime(next) {}
    }

    /// Reports a virtual-clock sleep made by a task this driver does not
    /// drive; `true` if the sleep must throw at once: the task belongs to
    /// another live TestScheduler (`reportSecondScheduler`). Other escaped
    /// sleeps are reported once per scheduler, and go ahead.
    func reportEscapedSleep() -> Bool {
        if !lock.withLock({ machine.isStalled }), let other = otherDriverOfCurrentContext {
            reportSecondScheduler(other: other)
            return true
        }
        // After a stall every task runs outside the driver: the sleep throws
        // with the stall's report instead (`reportSleepAfterStall`).
        let (report, known) = lock.withLock { (machine.escapedSleep(), lastSite) }
        guard report else { return false }
        TestFailureReporter.fail(
            "A task slept on TestScheduler.virtualClock while running outside the scheduler's control (it was started before the TestScheduler was created, by a task the scheduler does not drive, on a custom executor, or it was woken by a real clock, a DispatchQueue or I/O). Its wake-ups are not part of the quiescence that async advance/run wait for, so the test races with it. Create the TestScheduler first, in the test, and replace real clocks and queues with the virtual clock and the scheduler (see Docs/AsyncAwait.md).",
            at: known ?? CallSite())
        return false
    }
}
