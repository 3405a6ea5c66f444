import Foundation

/// A value guarded by a lock, for test bookkeeping shared across threads
/// (including non-Sendable values such as disposables).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    var current: Value { withLock { $0 } }
}

import Tick
import TickTesting

/// Waits until every action already queued on `schedulers` has finished. A
/// terminal event reaches the subscriber *before* the operators above it
/// finish their clean-up (in the same action on the scheduler's queue), so a
/// test that waited for the terminal event drains the queue before it returns
/// and the leak check counts what is still alive.
func drain(_ schedulers: DispatchQueueScheduler...) async -> Bool {
    let barrier = TestExpectation(count: schedulers.count)
    for scheduler in schedulers { scheduler.schedule { barrier.fulfill() } }
    return await barrier.wait(timeout: .seconds(300))
}
