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
///
/// A `Lock` is one reference to an object that holds the platform lock in
/// its own allocation (tail-allocated, as `ManagedBuffer` does), so making one
/// costs one allocation, not one for the object and another for the lock.
/// Copies of a `Lock` are the same lock.
@usableFromInline
package struct Lock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    /// The object whose tail is the platform lock.
    @usableFromInline
    final class Storage: ManagedBuffer<Void, Primitive> {
        deinit {
            withUnsafeMutablePointerToElements { raw in
                #if !canImport(Darwin)
                pthread_mutex_destroy(raw)
                #endif
                raw.deinitialize(count: 1)
            }
        }
    }

    @usableFromInline let storage: Storage

    @usableFromInline package init() {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in () }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { raw in
            #if canImport(Darwin)
            raw.initialize(to: os_unfair_lock())
            #else
            raw.initialize(to: pthread_mutex_t())
            pthread_mutex_init(raw, nil)
            #endif
        }
    }

    /// The platform lock (its address never changes while `storage` lives).
    @inlinable var raw: UnsafeMutablePointer<Primitive> {
        storage.withUnsafeMutablePointerToElements { $0 }
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
