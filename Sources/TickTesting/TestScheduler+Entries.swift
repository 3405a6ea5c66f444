#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(TickInternals) import Tick

/// A weak reference to a ``TestScheduler`` that is not a Swift `weak`
/// reference: one per scheduler, shared by everything that must reach the
/// scheduler without keeping it alive (the disposables of its scheduled
/// work, its periodic tasks, its async driver, the leak trait's list).
///
/// Why not `weak`: the first `weak` reference to an object moves its
/// reference count to a side table for the rest of its life, and every
/// retain and release of it then takes the runtime's slow path. A
/// scheduler is retained and released by every timer and time operator
/// that holds it (about 125 instructions a `timer`, measured in
/// `many_timers`). With this link the scheduler's count stays inline.
///
/// How it stays safe: the link keeps the scheduler's address, cleared by the
/// scheduler's deinit as its first step, under `lock`. Loading it takes the
/// lock, so the address is that of a scheduler whose deinit has not passed
/// that step (its memory is valid), and retains it with the runtime's
/// `swift_tryRetain`, which fails once the scheduler's last strong reference
/// is gone (its deinit has started or is about to): exactly what loading a
/// `weak` reference does, without the side table.
final class SchedulerLink: @unchecked Sendable {
    // @unchecked: `address` is only touched under `lock`.
    private let lock = Lock()
    private var address: UnsafeMutableRawPointer?

    /// Links to `scheduler` (by its initializer, before the link is shared).
    func attach(_ scheduler: TestScheduler) {
        address = Unmanaged.passUnretained(scheduler).toOpaque()
    }

    /// Called by the scheduler's deinit, first: loads return nil from now on.
    func detach() {
        lock.withLock { address = nil }
    }

    /// The scheduler, retained, or nil if it is gone or going away (as a
    /// `weak` reference reads).
    var scheduler: TestScheduler? {
        lock.lock()
        defer { lock.unlock() }
        guard let address, swiftTryRetain(address) != nil else { return nil }
        return Unmanaged<TestScheduler>.fromOpaque(address).takeRetainedValue()
    }
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

/// The disposable for one pending entry of a ``TestScheduler``: two words, no
/// allocation of its own. Disposing it cancels the entry if it has not run;
/// disposing again, or after it ran, does nothing.
struct ScheduledEntry: Disposable {
    let handle: SchedulerLink
    let sequence: UInt64

    func dispose() {
        handle.scheduler?.cancel(sequence)
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
