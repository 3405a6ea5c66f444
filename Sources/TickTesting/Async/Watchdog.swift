import Dispatch

/// Checks every 100 ms (real time) whether a driver is stuck waiting behind a
/// job that never ends. One timer for the process, started with the first
/// TestScheduler.
final class Watchdog: @unchecked Sendable {
    // @unchecked: `drivers` is guarded by `lock`; `timer` is set once in init.
    static let shared = Watchdog()

    private let lock = Lock()
    private var drivers: [Weak] = []
    private var timer: (any DispatchSourceTimer)?

    private struct Weak {
        weak var driver: AsyncDriver?
    }

    private init() {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Tick.TestScheduler.watchdog"))
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        self.timer = timer
    }

    func watch(_ driver: AsyncDriver) {
        lock.withLock { drivers.append(Weak(driver: driver)) }
    }

    private func tick() {
        let live = lock.withLock { () -> [AsyncDriver] in
            drivers.removeAll { $0.driver == nil }
            return drivers.compactMap(\.driver)
        }
        let now = ContinuousClock.now
        for driver in live {
            driver.checkStall(now: now)
            driver.checkStuck(now: now)
        }
    }
}
