import Tick
import TickTesting

/// What happened, with the virtual time it happened at: "label@time".
final class Timeline: @unchecked Sendable {
    // @unchecked: `entries` is guarded by `lock`.
    private let lock = Lock()
    private var recorded: [String] = []
    let scheduler: TestScheduler

    init(_ scheduler: TestScheduler) { self.scheduler = scheduler }

    func record(_ label: String) {
        let time = scheduler.clock
        lock.withLock { recorded.append("\(label)@\(time)") }
    }

    var entries: [String] { lock.withLock { recorded } }
}

/// Sleeps `milliseconds` on `clock`, then records `label` (or "label
/// cancelled" if the sleep was cancelled).
func nap(_ milliseconds: Int, _ label: String, on clock: TestScheduler.VirtualClock, _ timeline: Timeline) async {
    do {
        try await clock.sleep(for: .milliseconds(milliseconds))
        timeline.record(label)
    } catch {
        timeline.record("\(label) cancelled")
    }
}

/// Carries a value the compiler cannot prove `Sendable` into a task.
struct Unchecked<Value>: @unchecked Sendable {
    // @unchecked: used only for Tick subjects and disposables in these tests,
    // which are thread-safe (their state is behind locks).
    let value: Value
}
