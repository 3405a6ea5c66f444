#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A non-recursive mutual-exclusion lock used to guard Tick's internal state.
///
/// Tick never calls user code while holding one of these: state is read or
/// changed under the lock, and callbacks run after it is released.
///
/// `Synchronization.Mutex.withLock` would be the natural interface, but its
/// `sending` closure signatures do not fit state that holds non-`Sendable`
/// user closures, which the Rx contract allows, and the test scheduler's loop
/// needs to release the lock around each action. So this class offers
/// `lock()`/`unlock()` over the platform's cheapest uncontended lock:
/// `os_unfair_lock` on Apple platforms; elsewhere the toolchain's own
/// `Mutex<Void>` (a futex lock whose uncontended path is one atomic
/// compare-and-exchange, inlined here, against about 50 instructions for
/// `pthread_mutex_lock`/`unlock`), stored inline, so a lock costs no
/// allocation of its own.
@usableFromInline
package final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let raw: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let mutex = Mutex<Void>(())
    /// The thread sanitizer's hooks when it is loaded, nil otherwise.
    @usableFromInline let sanitizer = ThreadSanitizerHooks.loaded
    #endif

    @usableFromInline package init() {
        #if canImport(Darwin)
        raw = .allocate(capacity: 1)
        raw.initialize(to: os_unfair_lock())
        #endif
    }

    #if canImport(Darwin)
    deinit {
        raw.deinitialize(count: 1)
        raw.deallocate()
    }
    #endif

    @inlinable package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(raw)
        #else
        mutex._unsafeLock()
        if let sanitizer { sanitizer.acquire(Unmanaged.passUnretained(self).toOpaque()) }
        #endif
    }

    @inlinable package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(raw)
        #else
        if let sanitizer { sanitizer.release(Unmanaged.passUnretained(self).toOpaque()) }
        mutex._unsafeUnlock()
        #endif
    }

    @inlinable package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

#if !canImport(Darwin)
/// The thread sanitizer's annotation entry points, found at run time.
///
/// `Mutex`'s uncontended path is inlined into Tick, where the sanitizer sees
/// its atomics, but a contended lock is taken inside the standard library,
/// which is not instrumented: without help the sanitizer would miss that
/// hand-over and report the state the lock guards as racing. So when the
/// sanitizer's runtime is in the process (`swift test --sanitize=thread`),
/// `Lock` tells it directly: "acquired" after locking, "released" before
/// unlocking, keyed by the lock's address. In any other process the lookup
/// finds nothing and each lock pays one nil check.
@usableFromInline
struct ThreadSanitizerHooks: Sendable {
    @usableFromInline let acquire: @convention(c) (UnsafeMutableRawPointer?) -> Void
    @usableFromInline let release: @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Looked up once per process.
    @usableFromInline static let loaded: ThreadSanitizerHooks? = {
        guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release") else {
            return nil
        }
        typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void
        return ThreadSanitizerHooks(
            acquire: unsafeBitCast(acquire, to: Hook.self), release: unsafeBitCast(release, to: Hook.self))
    }()
}
#endif

/// Carries a value across an isolation boundary that Tick has already made safe
/// by other means (a serial queue, the Rx rule that one observer receives its
/// events one at a time). Internal: never used to hide a real data race.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
