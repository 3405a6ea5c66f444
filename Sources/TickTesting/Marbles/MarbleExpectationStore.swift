import Testing
import Tick

// The bookkeeping behind marble expectations: recording what a source
// emits without keeping the scheduler alive, and the scheduler's store of
// expectations not yet checked, which reports any never checked (a
// forgotten `flush()`) at its line. See MarbleTesting.swift, "Time rules".

/// Records what an expectation's source emits, with the virtual time. Unlike
/// ``TestableObserver`` it refers to its scheduler weakly: the scheduler
/// keeps its pending expectations, and they must not keep the scheduler
/// alive, or a scheduler dropped without a flush would never be released and
/// its unchecked expectations never reported (see `MarbleExpectationStore`).
///
/// Inlinable, with the code that subscribes it, so that recording an event
/// is specialized for the element type where the expectation is written.
@usableFromInline
class MarbleRecorder<Element>: ObserverType, @unchecked Sendable {
    // `recorded` is guarded by `lock` (so it needs none of the runtime's
    // exclusivity checks); `link` is set once and safe to load from any
    // thread.
    /// The scheduler's link: a weak reference that is not a Swift `weak`
    /// one, which would move the scheduler's reference count to a side
    /// table (see `SchedulerLink`).
    @usableFromInline let link: SchedulerLink
    /// The scheduler, or nil once it is gone.
    @inlinable final var scheduler: TestScheduler? { link.scheduler }
    /// The scheduler's marble lock (see `MarbleExpectationStore.lock`).
    @usableFromInline let lock: Lock
    /// (`final`: a stored property of a class that is not final is read and
    /// written through its accessors from other modules, a copy of the
    /// array and a modify coroutine an event.)
    @usableFromInline @exclusivity(unchecked) final var recorded: [Recorded<Event<Element>>] = []
    /// The scheduler's clock, read without the scheduler (see `record`).
    @usableFromInline let clock: RecorderClock

    @inlinable
    init(scheduler: TestScheduler) {
        self.link = scheduler.handle
        self.lock = scheduler.marbleExpectations.lock
        self.clock = RecorderClock(scheduler)
    }

    /// Everything received so far, in order, with its time.
    @inlinable
    final var events: [Recorded<Event<Element>>] { lock.withLock { recorded } }

    @inlinable
    func on(_ event: Event<Element>) {
        record(event)
    }

    @inlinable
    final func record(_ event: Event<Element>) {
        // The clock as the scheduler publishes it, read without reaching the
        // scheduler through its link (a retain, a release and the atomics of
        // the link an event). Only a running scheduler delivers events; and
        // once the scheduler is gone nothing can read what was recorded (the
        // checks went with its marble store, and a `MarbleExpectation` keeps
        // its scheduler), so an event delivered after that, which was
        // dropped before, is recorded at the last time for no one.
        let time = clock.now()
        lock.withLock {
            // Room for a short diagram's events at once, rather than growing
            // through capacities 1, 2, 4 and 8.
            if recorded.capacity == 0 { recorded.reserveCapacity(8) }
            recorded.append(Recorded(time: time, value: event))
        }
    }
}

/// A scheduler's clock as a marble recorder reads it: the clock the
/// scheduler publishes (which `now` reads) and the frame, converted as
/// ``TestScheduler/testTime(for:)`` converts it.
@usableFromInline
struct RecorderClock: Sendable {
    let published: PublishedClock
    let frameAttoseconds: Int128
    let frameAttoseconds64: Int64

    @usableFromInline
    init(_ scheduler: TestScheduler) {
        published = scheduler.publishedClock
        frameAttoseconds = scheduler.frameAttoseconds
        frameAttoseconds64 = scheduler.frameAttoseconds64
    }

    /// The scheduler's clock, in frames (``TestScheduler/clock``).
    @usableFromInline
    func now() -> TestTime {
        TestScheduler.testTime(
            attoseconds: published.read().totalAttoseconds, frameAttoseconds: frameAttoseconds,
            frameAttoseconds64: frameAttoseconds64)
    }
}

/// What the store runs once its expectations are checked (or reported as
/// never checked): an object rather than a closure, so registering one
/// allocates no closure context.
@usableFromInline
protocol MarbleCleanup: AnyObject {
    /// Lets go of what the expectation subscribed and scheduled; runs once.
    func cleanUp()
}

/// The recorder of `expect(source)`: it subscribes to `source` when its
/// scheduled subscription runs, records what it emits, and lets go of the
/// source when the source ends, at the subscription diagram's `!`, or at
/// the cleanup after the check, whichever comes first (what a
/// `SerialDisposable` and three closures did, in one object).
@usableFromInline
// @unchecked: every mutable property is guarded by `lock` (see below).
final class MarbleSubscriber<Source: ObservableType>: MarbleRecorder<Source.Element>, MarbleCleanup,
    @unchecked Sendable
{
    // `source` is set once; `subscription`, `ended` and `actions` are
    // guarded by `lock`. (The source is not let go of after subscribing:
    // an `Optional<Source>` in this generic class's unspecialized methods
    // costs a metadata lookup, about 500 instructions, at each use.)
    @usableFromInline let source: Source
    @usableFromInline @exclusivity(unchecked) var subscription: (any Disposable)?
    @usableFromInline @exclusivity(unchecked) var ended = false
    /// The scheduled subscription and unsubscription, cancelled by the cleanup.
    @usableFromInline @exclusivity(unchecked) var actions: (subscribe: UInt64, unsubscribe: UInt64?)?

    @inlinable
    init(scheduler: TestScheduler, source: Source) {
        self.source = source
        super.init(scheduler: scheduler)
    }

    @inlinable
    override func on(_ event: Event<Source.Element>) {
        record(event)
        // Like an RxJS subscriber, the expectation lets go of its source when
        // the source ends, so the subscription log shows the end.
        if event.isStopEvent { end() }
    }

    /// Subscribes to the source (the scheduled `^`). A subscription that
    /// ended while subscribing (the source ended at once) is disposed now.
    @inlinable
    func subscribe() {
        // Moved, never copied, into `subscription` (its last use; each copy
        // of an optional existential is an outlined copy and a destroy), and
        // not kept in an optional of its own: an optional existential is
        // destroyed through the runtime's value witnesses (about 60
        // instructions, even for `nil`).
        let disposable = source.subscribe(self)
        lock.lock()
        guard !ended else {
            lock.unlock()
            // The subscription had already ended.
            disposable.dispose()
            return
        }
        subscription = disposable
        lock.unlock()
    }

    /// Ends the subscription (the source ended, the `!`, or the cleanup);
    /// a subscription made later is disposed as soon as it is made.
    @inlinable
    func end() {
        // Moved out under the lock, not copied, and out of its optional at
        // once (see `subscribe()`).
        lock.lock()
        ended = true
        let taken = subscription.take()
        lock.unlock()
        switch consume taken {
        case .some(let disposable): disposable.dispose()
        case .none: break
        }
    }

    @usableFromInline
    func cleanUp() {
        end()
        let actions = lock.withLock { () -> (subscribe: UInt64, unsubscribe: UInt64?)? in
            defer { self.actions = nil }
            return self.actions
        }
        guard let actions, let scheduler else { return }
        scheduler.cancel(actions.subscribe)
        if let unsubscribe = actions.unsubscribe { scheduler.cancel(unsubscribe) }
    }
}

/// The marble expectations of one scheduler, checked at flush, and the hot
/// observables of the marble API waiting for the scheduler to start.
///
/// An expectation never checked is reported at its line as soon as it is
/// clear it never will be: when the XCTest test that made it ends (a
/// teardown block), when the `.checksResourceLeaks` trait's test ends
/// (`reportUnchecked(in:)`), or when the scheduler is released (this
/// store's `deinit`), whichever comes first. Swift Testing gives a library
/// no end-of-test hook otherwise, so there the release is the signal: it happens where
/// the last reference to the scheduler goes away, usually when the test
/// function returns, on the test's own task, so `Issue.record` reaches that
/// test. That is why nothing the store or the scheduler's queue keeps before
/// the first run refers to the scheduler strongly (`MarbleRecorder`, the
/// weak scheduler of the marble API's test observables). An observable under
/// test that holds the scheduler itself (a time operator given it) still
/// keeps it alive; for that case a store with expectations stated in a Swift
/// Testing test is listed (weakly) in `UncheckedAtExit`, which reports what
/// is still unchecked when the process exits and fails the process.
@usableFromInline
final class MarbleExpectationStore: @unchecked Sendable {
    // Every property is guarded by `lock`.
    /// Also the lock of the scheduler's marble recorders and results and of
    /// its cold observables' subscription logs: none of them calls out while
    /// holding it, and sharing it saves a lock (an allocation) per `expect`
    /// and per `toBe`. It is the scheduler's own lock (one allocation less
    /// per scheduler): nothing holds one of the two while taking the other,
    /// since neither the scheduler's nor the marble code calls out while
    /// holding it, and the only deinitializer that takes it (this store's)
    /// runs with the scheduler's, outside its lock.
    @usableFromInline let lock: Lock
    // (So the runtime's exclusivity checks are off for them.)
    @exclusivity(unchecked) private var checks = FewList<Check>()
    @exclusivity(unchecked) private var cleanups = FewList<Cleanup>()
    @exclusivity(unchecked) private var setups: [() -> Void] = []
    @exclusivity(unchecked) private var teardownRegistered = false
    @exclusivity(unchecked) private var listedForExit = false
    /// Set once an expectation of this store was reported never checked.
    @exclusivity(unchecked) private var reportedUnchecked = false

    /// One pending expectation: where it was stated, the Swift Testing test
    /// that stated it (if any), the check itself, and what lets go of what
    /// the check would have read when it is reported never checked instead
    /// (see ``add(site:check:discard:)``).
    private struct Check {
        let site: CallSite
        let test: StatingTest?
        let run: () -> Void
        let discard: () -> Void
    }

    /// What to run after the checks: a closure, or an object (which costs
    /// no closure context).
    private enum Cleanup {
        case closure(() -> Void)
        case object(any MarbleCleanup)

        func run() {
            switch self {
            case .closure(let body): body()
            case .object(let object): object.cleanUp()
            }
        }
    }

    /// The Swift Testing test that stated an expectation, in a box: `Test`
    /// has no fixed layout, and held directly it made every copy, move and
    /// release of a `Check` go through runtime metadata.
    private final class StatingTest {
        let test: Test
        init(_ test: Test) { self.test = test }
    }

    /// A store guarded by `lock` (its scheduler's).
    init(lock: Lock) { self.lock = lock }

    static let neverCheckedMessage =
        "marble expectation never checked: call `scheduler.flush()` (or use `scheduler.run { … }`)"

    /// Adds a check that keeps what it reads in the closure itself: the
    /// closure is released once it ran or was reported never checked.
    @usableFromInline
    func add(site: CallSite, check: @escaping () -> Void) {
        add(site: site, check: check, discard: {})
    }

    /// Adds a check whose closure refers to an object that keeps what it
    /// reads (a `MarbleResult`, which the test may hold): `discard` lets go
    /// of that when the check is reported never checked, as releasing a
    /// closure that held it would.
    @usableFromInline
    func add(site: CallSite, check: @escaping () -> Void, discard: @escaping () -> Void) {
        let test = Test.current.map(StatingTest.init)
        let (register, listForExit) = lock.withLock { () -> (Bool, Bool) in
            checks.append(Check(site: site, test: test, run: check, discard: discard))
            defer {
                teardownRegistered = true
                if test != nil { listedForExit = true }
            }
            return (!teardownRegistered, test != nil && !listedForExit)
        }
        // Under Swift Testing, one still unchecked when the process exits
        // fails the process (a scheduler kept alive by its observable is
        // never released, see `UncheckedAtExit`).
        if listForExit { UncheckedAtExit.shared.register(self) }
        // Under XCTest, an expectation still unchecked when the test ends
        // fails at its line (Swift Testing has no end-of-test hook for a
        // library: there the release of the scheduler reports it, see deinit).
        if register {
            TestFailureReporter.atEndOfCurrentXCTest(
                inSwiftTestingTest: test != nil, { @Sendable [weak self] in self?.reportUnchecked() })
            // Under the `.checksResourceLeaks` trait, the end of the test
            // reports it too, even for a scheduler that is never released.
            if let scope = Resources.currentIfAnyAlive { Self.scoped.add(self, in: scope) }
        }
    }

    /// The stores whose expectations were stated inside a `Resources.Scope`.
    private static let scoped = ScopedStores()

    /// Reports, at their lines, the expectations never checked of every
    /// scheduler whose expectations were stated while `scope` was current:
    /// the `.checksResourceLeaks` trait calls it when its test ends.
    static func reportUnchecked(in scope: Resources.Scope) {
        for store in scoped.take(scope) { store.reportUnchecked() }
    }

    @usableFromInline
    func add(cleanup: @escaping () -> Void) { lock.withLock { cleanups.append(.closure(cleanup)) } }

    @usableFromInline
    func add(cleanup: any MarbleCleanup) { lock.withLock { cleanups.append(.object(cleanup)) } }

    deinit {
        // The usual store was checked and cleaned up by a flush: nothing left
        // to take out (moving the two empty lists out cost about 200
        // instructions a scheduler).
        guard lock.withLock({ checks.hasItems || cleanups.hasItems }) else { return }
        // The scheduler is being released: what was not checked by now never
        // will be (an XCTest teardown block may already have taken it).
        reportUnchecked()
    }

    /// Keeps `setup` until the scheduler next starts running; `false` (and
    /// nothing kept) when it is running now, so the caller sets up at once.
    func deferUntilRun(scheduler: TestScheduler, _ setup: @escaping () -> Void) -> Bool {
        guard !scheduler.lock.withLock({ scheduler.state.isAdvancing }) else { return false }
        lock.withLock { setups.append(setup) }
        return true
    }

    /// Runs the deferred setups, in the order they were made.
    func runSetups() {
        let pending = lock.withLock {
            defer { setups = [] }
            return setups
        }
        for setup in pending { setup() }
    }

    /// Runs every pending check, then every cleanup; each runs once.
    func checkAll() {
        var (checks, cleanups) = takeAll()
        checks.removeEach { $0.run() }
        cleanups.removeEach { $0.run() }
    }

    /// Fails every expectation not checked yet, at its line, and lets go of
    /// what `expect` subscribed.
    func reportUnchecked() {
        let (checks, cleanups) = takeAll()
        if checks.hasItems { lock.withLock { reportedUnchecked = true } }
        checks.forEach { check in
            TestFailureReporter.fail(
                TestFailure(title: "marble expectation never checked", message: Self.neverCheckedMessage, site: check.site))
            check.discard()
        }
        cleanups.forEach { $0.run() }
    }

    /// Whether an expectation of this store was reported never checked, or
    /// is still unchecked (and will be, as the store goes away): the
    /// scheduler's undriven-work hint then says nothing, since that failure,
    /// at each `expect` line, already tells the test to flush.
    var hasUncheckedExpectations: Bool {
        lock.withLock { reportedUnchecked || checks.hasItems }
    }

    /// The expectations not checked yet that a Swift Testing test stated, for
    /// the report at process exit.
    func uncheckedSwiftTestingExpectations() -> [(site: CallSite, test: Test?)] {
        lock.withLock {
            var unchecked: [(site: CallSite, test: Test?)] = []
            checks.forEach { check in if let test = check.test { unchecked.append((check.site, test.test)) } }
            return unchecked
        }
    }

    private func takeAll() -> (FewList<Check>, FewList<Cleanup>) {
        lock.withLock {
            // Moved out, empty lists left behind (returning the stored lists
            // and then resetting them copied both: a retain and a release of
            // everything they hold).
            var (checks, cleanups) = (FewList<Check>(), FewList<Cleanup>())
            swap(&checks, &self.checks)
            swap(&cleanups, &self.cleanups)
            return (checks, cleanups)
        }
    }
}

/// A list in the order of its appends that keeps its first item inline: a
/// scheduler usually holds one expectation (a check and a cleanup), and an
/// array would allocate its storage for it.
private struct FewList<Item> {
    private var first: Item?
    private var rest: [Item] = []

    mutating func append(_ item: Item) {
        if first == nil {
            first = item
        } else {
            rest.append(item)
        }
    }

    /// Whether the list holds an item.
    var hasItems: Bool { first != nil }

    /// Calls `body` on each item, in the order they were appended.
    func forEach(_ body: (Item) -> Void) {
        guard let first else { return }
        body(first)
        for item in rest { body(item) }
    }

    /// ``forEach(_:)`` that empties the list, the first item moved out
    /// rather than copied (the usual list holds only that one).
    mutating func removeEach(_ body: (Item) -> Void) {
        guard let first = first.take() else { return }
        body(first)
        let rest = self.rest
        self.rest = []
        for item in rest { body(item) }
    }
}

/// The marble expectation stores of each `Resources.Scope` (the leak trait's
/// scope of a test), both held weakly: neither a scheduler nor a scope is
/// kept alive by being listed here.
private final class ScopedStores: @unchecked Sendable {
    private struct Entry {
        weak var scope: Resources.Scope?
        weak var store: MarbleExpectationStore?
    }

    // `entries` is guarded by `lock`.
    private let lock = Lock()
    private var entries: [Entry] = []

    func add(_ store: MarbleExpectationStore, in scope: Resources.Scope) {
        lock.withLock {
            entries.removeAll { $0.scope == nil || $0.store == nil }
            entries.append(Entry(scope: scope, store: store))
        }
    }

    /// Removes the stores of `scope` (and entries whose scope or store is
    /// gone) and returns those still alive.
    func take(_ scope: Resources.Scope) -> [MarbleExpectationStore] {
        lock.withLock {
            var taken: [MarbleExpectationStore] = []
            entries.removeAll { entry in
                guard let entryScope = entry.scope, let store = entry.store else { return true }
                guard entryScope === scope else { return false }
                taken.append(store)
                return true
            }
            return taken
        }
    }
}
