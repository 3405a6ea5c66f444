#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A non-recursive mutual-exclusion lock used to guard Tick's internal state.
///
/// Tick never calls user code while holding one of these: state is read or
/// changed under the lock, and callbacks run after it is released.
///
/// `Synchronization.Mutex` would be the natural choice, but its `sending`
/// closure signatures do not fit state that holds non-`Sendable` user closures,
/// which the Rx contract allows. This lock is a thin wrapper over the
/// platform's fastest uncontended lock instead.
@usableFromInline
package final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let raw: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let raw: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @usableFromInline package init() {
        #if canImport(Darwin)
        raw = .allocate(capacity: 1)
        raw.initialize(to: os_unfair_lock())
        #else
        raw = .allocate(capacity: 1)
        raw.initialize(to: pthread_mutex_t())
        pthread_mutex_init(raw, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(raw)
        #endif
        raw.deinitialize(count: 1)
        raw.deallocate()
    }

    @inlinable package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(raw)
        #else
        pthread_mutex_lock(raw)
        #endif
    }

    @inlinable package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(raw)
        #else
        pthread_mutex_unlock(raw)
        #endif
    }

    @inlinable package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Carries a value across an isolation boundary that Tick has already made safe
/// by other means (a serial queue, the Rx rule that one observer receives its
/// events one at a time). Internal: never used to hide a real data race.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
