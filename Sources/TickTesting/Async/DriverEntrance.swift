import Dispatch

/// An actor whose executor is one driver's queue: `await visit()` moves the
/// calling task into that driver (see `AsyncDriver.quiescence`).
actor DriverEntrance {
    private let executor: Executor

    init(driver: AsyncDriver) {
        executor = Executor(driver: driver)
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    func visit() {}

    final class Executor: SerialExecutor, @unchecked Sendable {
        // @unchecked: `driver` is a weak reference, set once.
        weak var driver: AsyncDriver?

        init(driver: AsyncDriver) { self.driver = driver }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let reference = asUnownedSerialExecutor()
            if let driver {
                driver.enqueue(job, toMain: false, original: nil, entrance: reference)
            } else {
                DispatchQueue.global().async { JobRouting.track(job) { $0.runSynchronously(on: reference) } }
            }
        }
    }
}
