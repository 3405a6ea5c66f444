import Dispatch
import Tick

/// Waits, without sleeping, for work on real schedulers (Dispatch queues,
/// other threads) to happen a given number of times.
///
/// ```swift
/// let done = TestExpectation(count: 1)
/// DispatchQueueScheduler(label: "work").schedule { done.fulfill() }
/// #expect(await done.wait(timeout: .seconds(5)))
/// ```
///
/// The timeout is a safety net for a broken test, not a timing assertion: use a
/// generous one. For anything about *when* something happens, use
/// ``TestScheduler``.
public final class TestExpectation: @unchecked Sendable {
    private let lock = Lock()
    private var remaining: Int
    private var overfulfilled = false
    private var waiter: CheckedContinuation<Bool, Never>?

    /// An expectation fulfilled after `count` calls to ``fulfill()``.
    public init(count: Int = 1) {
        remaining = max(0, count)
    }

    /// Counts one occurrence. Safe from any thread.
    public func fulfill() {
        let continuation: CheckedContinuation<Bool, Never>? = lock.withLock {
            if remaining == 0 {
                overfulfilled = true
                return nil
            }
            remaining -= 1
            guard remaining == 0 else { return nil }
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume(returning: true)
    }

    /// `true` if ``fulfill()`` was called more often than expected.
    public var isOverfulfilled: Bool { lock.withLock { overfulfilled } }

    /// Occurrences still expected.
    public var remainingCount: Int { lock.withLock { remaining } }

    /// Waits until fulfilled (`true`) or until `timeout` passes (`false`).
    public func wait(timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let done: Bool = lock.withLock {
                if remaining == 0 { return true }
                waiter = continuation
                return false
            }
            if done {
                continuation.resume(returning: true)
                return
            }
            let nanos = Int(clamping: timeout.totalAttoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanos)) { [self] in
                let pending: CheckedContinuation<Bool, Never>? = lock.withLock {
                    defer { waiter = nil }
                    return waiter
                }
                pending?.resume(returning: false)
            }
        }
    }
}
