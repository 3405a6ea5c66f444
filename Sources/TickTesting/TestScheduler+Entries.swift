#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
@_spi(TickInternals) import Tick

/// A weak reference to a ``TestScheduler`` that is not a Swift `weak`
/// reference: one per scheduler, shared by everything that must reach the
/// scheduler without keeping it alive (the disposables of its scheduled
/// work, its periodic tasks, its async driver, the leak trait's list, and
/// timer observables, through its conformance to `Scheduler` below).
///
/// Why not `weak`: the first `weak` reference to an object moves its
/// reference count to a side table for the rest of its life, and every
/// retain and release of it then takes the runtime's slow path. A
/// scheduler is retained and released by every timer and time operator
/// that holds it (about 125 instructions a `timer`, measured in
/// `many_timers`). With this link the scheduler's count stays inline.
///
/// How it stays safe: the link keeps the scheduler's address, cleared by the
/// scheduler's deinit as its first step. A load announces itself in
/// `readers` before it reads the address, and retains the scheduler with the
/// runtime's `swift_tryRetain`, which fails once the scheduler's last strong
/// reference is gone (its deinit has started): exactly what loading a `weak`
/// reference does, without the side table. The deinit clears the address,
/// then waits until no load is in progress, so a load that read the address
/// before it was cleared has finished with the scheduler's memory before the
/// deinit goes on. Both sides use sequentially consistent operations: either
/// the load sees the address cleared, or the deinit sees the load announced.
/// Scheduling through the link (`enqueueOnScheduler`) is announced the same
/// way and does not retain: the deinit's wait keeps the scheduler whole
/// until it returns. The wait is bounded: between its announcement and its
/// end a load only reads the address and tries the retain, and scheduling
/// only enqueues (the scheduler's lock; no action runs, only the report of
/// a negative delay, which never reaches the link).
@usableFromInline
final class SchedulerLink: Sendable {
    private let address = Atomic<UInt>(0)
    private let readers = Atomic<Int>(0)
    /// `swiftTryRetain`, read once: a global's every read goes through
    /// `swift_once` (about 14 instructions a load of the scheduler).
    private let tryRetain = swiftTryRetain
    /// The scheduler's entry slot (see `EntrySlot`), taken from the pool
    /// with the link, given back by `detach()`; and the generation of the
    /// slot that is this scheduler's.
    let entrySlot: Unmanaged<EntrySlot>
    let entryGeneration: UInt64

    init() {
        (entrySlot, entryGeneration) = EntrySlot.take()
    }

    /// Links to `scheduler` (by its initializer, before the link is shared).
    func attach(_ scheduler: TestScheduler) {
        address.store(UInt(bitPattern: Unmanaged.passUnretained(scheduler).toOpaque()), ordering: .sequentiallyConsistent)
        entrySlot._withUnsafeGuaranteedRef { $0.attach(scheduler) }
    }

    /// Called by the scheduler's deinit, first: loads return nil from now
    /// on, and none still reads the scheduler when this returns. The entry
    /// slot goes back to the pool.
    func detach() {
        address.store(0, ordering: .sequentiallyConsistent)
        while readers.load(ordering: .sequentiallyConsistent) != 0 { sched_yield() }
        entrySlot._withUnsafeGuaranteedRef { $0.detach() }
        EntrySlot.give(entrySlot)
    }

    /// The scheduler, retained, or nil if it is gone or going away (as a
    /// `weak` reference reads).
    @usableFromInline var scheduler: TestScheduler? {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { readers.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard let raw = UnsafeMutableRawPointer(bitPattern: address.load(ordering: .sequentiallyConsistent)),
            tryRetain(raw) != nil
        else { return nil }
        return Unmanaged<TestScheduler>.fromOpaque(raw).takeRetainedValue()
    }

    /// Schedules on the scheduler without retaining it, or returns nil if
    /// it is gone or going away: `body` runs while this call is announced
    /// in `readers`, and the scheduler's deinit clears the address and then
    /// waits for every announced reader as its first step, so the scheduler
    /// is whole until `body` returns. A scheduler whose last reference went
    /// just as `body` started is still before that first step (its deinit
    /// waits in `detach`): the work is queued on it and released with its
    /// queue, as work scheduled a moment earlier would have been. `body`
    /// only enqueues (the scheduler's lock; no action runs, and nothing,
    /// not even the report of a negative delay, reaches this link again),
    /// so the deinit's wait stays short. Saves
    /// the `swift_tryRetain` and the release of the `scheduler` getter on
    /// every timer (Docs/PerformanceHistory.md, "Timers (branch timers7,
    /// 2026-11-27)").
    @inline(__always)
    private func enqueueOnScheduler(_ body: (TestScheduler) -> ScheduledEntry) -> ScheduledEntry? {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { readers.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard let raw = UnsafeMutableRawPointer(bitPattern: address.load(ordering: .sequentiallyConsistent)) else {
            return nil
        }
        return Unmanaged<TestScheduler>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }
}

/// What a timer observable holds of a test scheduler
/// (`Scheduler._referenceForTimers`): the scheduler's link, which
/// schedules on the scheduler while it exists, without keeping it alive.
///
/// ## Ownership
/// What keeps a ``TestScheduler`` alive is the test's references to it and
/// what holds it strongly (its testable observers and virtual clocks, the
/// time operators' sinks such as `delay`'s, a closure that captures it). A
/// timer observable does not: a pending one-shot timer subscribed with
/// `subscribe(onNext:)` is one object, its `OneShotTimerSource`, held by the
/// scheduler's queue through the scheduled action, so a strong reference
/// back to the scheduler would be a cycle. A test that lets go of its
/// scheduler with a timer pending (an `advance(to:)` short of the deadline)
/// then releases it, with its pending work: the undriven-work hint is
/// given, and the leak trait no longer counts that work. Nothing is lost:
/// no one but a holder of the scheduler can move its clock, so the timer
/// could never have fired. Subscribing to the timer after its scheduler is
/// gone schedules nothing (the disposables here do nothing, the clock reads
/// as the origin).
extension SchedulerLink: Scheduler {
    @usableFromInline
    var now: SchedulerInstant { scheduler?.now ?? .origin }

    /// `true`: scheduling only enqueues (under the scheduler's lock), and
    /// runs nothing before it returns (`Scheduler._schedulesOnlyForLater`).
    @usableFromInline
    var _schedulesOnlyForLater: Bool { true }

    @usableFromInline
    func schedule(_ action: @escaping () -> Void) -> any Disposable {
        guard let entry = enqueueOnScheduler({ $0.enqueue(due: nil, action) }) else { return Disposables.create() }
        return entry
    }

    /// (Written out, not through `enqueueOnScheduler`: a closure's capture
    /// can only be borrowed, and `action` moves into the queue's entry, so
    /// the queue takes the caller's reference with no retain of its own.
    /// The same protocol as `enqueueOnScheduler`'s.)
    @usableFromInline
    func schedule(after delay: Duration, _ action: __owned @escaping () -> Void) -> any Disposable {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { readers.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard let raw = UnsafeMutableRawPointer(bitPattern: address.load(ordering: .sequentiallyConsistent)) else {
            return Disposables.create()
        }
        // Not retained: the scheduler's deinit waits for this call (it is
        // announced in `readers`) before it goes on. The action moves in
        // through an optional, which the closure empties (`take()`).
        var pending: (() -> Void)? = consume action
        return Unmanaged<TestScheduler>.fromOpaque(raw)._withUnsafeGuaranteedRef {
            $0.enqueue(checkedAfter: delay, pending.take().unsafelyUnwrapped)
        }
    }

    @usableFromInline
    func schedule(at time: SchedulerInstant, _ action: @escaping () -> Void) -> any Disposable {
        guard let entry = enqueueOnScheduler({ $0.enqueue(due: time, action) }) else { return Disposables.create() }
        return entry
    }

    @usableFromInline
    func schedulePeriodic(after delay: Duration, period: Duration, _ action: @escaping () -> Void) -> any Disposable {
        guard let scheduler else { return Disposables.create() }
        return scheduler.schedulePeriodic(after: delay, period: period, action)
    }
}

extension TestScheduler {
    /// The scheduler's link (see `SchedulerLink`'s conformance to
    /// `Scheduler`): a timer observable does not keep a test scheduler alive.
    public var _referenceForTimers: any Scheduler { handle }
}

/// The Swift runtime's `swift_tryRetain` (exported by every Swift runtime,
/// `HeapObject *swift_tryRetain(HeapObject *)`; what loading a `weak`
/// reference does to the object): retains an object unless its deinit has
/// started, and returns it, or nil if it did not retain it. Looked up once,
/// by name, and called as the C function it is (a Swift declaration naming
/// a runtime symbol is not allowed).
private let swiftTryRetain: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "swift_tryRetain") else {
        // Not a state any Swift runtime can be in (the symbol is part of
        // its ABI); nothing a test can cause.
        fatalError("TestScheduler: the Swift runtime does not export swift_tryRetain")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?).self)
}()

/// The disposable for one pending entry of a ``TestScheduler``: three words
/// of plain data (its scheduler's entry slot, unretained, the slot's
/// generation and the entry's sequence number), so neither making one nor
/// dropping one touches a reference count, and it fits an existential's
/// inline buffer (no allocation). Disposing it cancels the entry if it has
/// not run; disposing again, after it ran, or after its scheduler is gone,
/// does nothing.
struct ScheduledEntry: Disposable {
    let slot: Unmanaged<EntrySlot>
    let generation: UInt64
    let sequence: UInt64

    init(link: SchedulerLink, sequence: UInt64) {
        self.slot = link.entrySlot
        self.generation = link.entryGeneration
        self.sequence = sequence
    }

    func dispose() {
        slot._withUnsafeGuaranteedRef { $0.scheduler(generation: generation) }?.cancel(sequence)
    }
}

/// What a ``ScheduledEntry`` reaches its scheduler through: a slot that is
/// never freed, so an entry may point at it without a reference count.
///
/// Why: an entry used to hold its scheduler's `SchedulerLink` strongly (the
/// link may outlive the scheduler): a retain when the entry was made and a
/// release when it was dropped, with the value witnesses of a non-trivial
/// type in between, for every scheduled action, most of whose disposables
/// are dropped at once (about 50 instructions an action,
/// `scheduler_schedule_advance`).
///
/// How it stays safe: slots live in a process-wide pool (a free list) and
/// are never deallocated (a slot is a few words; there are at most as many
/// as there were test schedulers alive at once). A scheduler's link takes one
/// when it is made, bumping the slot's `generation`, and gives it back when
/// the scheduler's deinit detaches the link; an entry records the
/// generation. A load (`scheduler(generation:)`) follows the link's
/// protocol (announce in `readers`, read the address, `swift_tryRetain`)
/// and also requires the slot's generation to be the entry's: the
/// generation is bumped before the next scheduler's address is stored, so
/// an entry of a scheduler that is gone never reaches the slot's next
/// scheduler, and the slot does not go back to the pool while a load that
/// read the old address is in progress (`detach` waits for it). Every
/// operation is sequentially consistent.
// @unchecked Sendable: `nextFree` is read and written only under the pool's
// lock, and only while the slot is in the pool (no scheduler uses it then);
// every other field is atomic.
final class EntrySlot: @unchecked Sendable {
    private let address = Atomic<UInt>(0)
    private let readers = Atomic<Int>(0)
    private let generation = Atomic<UInt64>(0)
    private let tryRetain = swiftTryRetain
    /// The next free slot while this one is free.
    @exclusivity(unchecked) private var nextFree: Unmanaged<EntrySlot>?

    /// The free slots (see `FreeSlots`).
    private static let pool = FreeSlots()

    /// The free slots, linked through `nextFree`, under Tick's `Lock` (not
    /// `Mutex`: a contended `Mutex` hands over inside the standard library,
    /// where the thread sanitizer does not see it, and it reported the
    /// list's head as racing; `Lock` tells the sanitizer). A slot is made
    /// retained once and never released: free, the pool reaches it; in use,
    /// its scheduler's link and entries do.
    // @unchecked Sendable: `head` is read and written only under `lock`.
    private final class FreeSlots: @unchecked Sendable {
        let lock = Lock()
        @exclusivity(unchecked) var head: Unmanaged<EntrySlot>?
    }

    /// A free slot (or a new one) and its new generation.
    static func take() -> (Unmanaged<EntrySlot>, UInt64) {
        // Read once: every read of a global goes through `swift_once`.
        let pool = Self.pool
        pool.lock.lock()
        let slot: Unmanaged<EntrySlot>
        if let free = pool.head {
            pool.head = free._withUnsafeGuaranteedRef { $0.nextFree }
            slot = free
        } else {
            slot = Unmanaged.passRetained(EntrySlot())
        }
        pool.lock.unlock()
        return (slot, slot._withUnsafeGuaranteedRef { $0.beginGeneration() })
    }

    /// The slot's next generation (by `take()`, before the slot is attached
    /// to its next scheduler): entries of the earlier ones no longer reach it.
    func beginGeneration() -> UInt64 {
        generation.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }

    /// Gives a detached slot back for the next scheduler.
    static func give(_ slot: Unmanaged<EntrySlot>) {
        let pool = Self.pool
        pool.lock.lock()
        slot._withUnsafeGuaranteedRef { $0.nextFree = pool.head }
        pool.head = slot
        pool.lock.unlock()
    }

    func attach(_ scheduler: TestScheduler) {
        address.store(UInt(bitPattern: Unmanaged.passUnretained(scheduler).toOpaque()), ordering: .sequentiallyConsistent)
    }

    func detach() {
        address.store(0, ordering: .sequentiallyConsistent)
        while readers.load(ordering: .sequentiallyConsistent) != 0 { sched_yield() }
    }

    /// The scheduler of generation `expected`, retained, or nil if it is
    /// gone or going away (the slot may since serve another scheduler).
    func scheduler(generation expected: UInt64) -> TestScheduler? {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { readers.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        guard let raw = UnsafeMutableRawPointer(bitPattern: address.load(ordering: .sequentiallyConsistent)),
            generation.load(ordering: .sequentiallyConsistent) == expected,
            tryRetain(raw) != nil
        else { return nil }
        return Unmanaged<TestScheduler>.fromOpaque(raw).takeRetainedValue()
    }
}

/// Periodic work on a test scheduler: each run is due exactly `period` after
/// the previous due time, never after the time it actually ran.
final class PeriodicTask: Disposable, @unchecked Sendable {
    private let link: SchedulerLink
    private let period: Duration
    private var action: (() -> Void)?
    private let lock = Lock()
    private var pending: ScheduledEntry?
    private var disposed = false

    init(scheduler: TestScheduler, period: Duration, action: @escaping () -> Void) {
        self.link = scheduler.handle
        self.period = period
        self.action = action
    }

    func start(at due: SchedulerInstant) {
        guard let scheduler = link.scheduler else { return }
        let entry = scheduler.enqueue(due: due) { [self] in fire(due: due) }
        let keep = lock.withLock { () -> Bool in
            guard !disposed else { return false }
            pending = entry
            return true
        }
        if !keep { entry.dispose() }
    }

    private func fire(due: SchedulerInstant) {
        let action = lock.withLock { disposed ? nil : self.action }
        action?()
        start(at: due + period)
    }

    func dispose() {
        let entry = lock.withLock { () -> ScheduledEntry? in
            guard !disposed else { return nil }
            disposed = true
            action = nil
            defer { pending = nil }
            return pending
        }
        entry?.dispose()
    }
}
