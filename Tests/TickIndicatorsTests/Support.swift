import Foundation
import Testing
import TickIndicators
import TickTesting

/// A value guarded by a lock, for test bookkeeping shared across threads.
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

/// One visibility callback of a network activity indicator manager, with the
/// virtual time it happened at.
struct VisibilityChange: Equatable, CustomStringConvertible {
    let time: TestTime
    let visible: Bool
    init(_ time: TestTime, _ visible: Bool) {
        self.time = time
        self.visible = visible
    }
    var description: String { "\(visible)@\(time)" }
}

extension NetworkActivityIndicatorManager {
    /// Records every visibility callback with the scheduler's clock.
    func recordChanges(on scheduler: TestScheduler) -> Locked<[VisibilityChange]> {
        let log = Locked<[VisibilityChange]>([])
        networkActivityIndicatorVisibilityChanged = { visible in
            log.withLock { $0.append(VisibilityChange(scheduler.clock, visible)) }
        }
        return log
    }
}

/// A test error with a name.
struct NamedError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { name }
}

/// Runs `body` and returns the messages of the Tick misuse reports it made.
/// Each report is a test issue of the current test (TickTesting turns misuse
/// into issues), expected here as a known issue: unlike swapping the global
/// `Misuse` handler, this stays right while other tests run in parallel.
func misuseReports(in body: () -> Void) -> [String] {
    TestFailureReporter.reportMisuseAsTestFailures()
    let reports = Locked<[String]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        let text = issue.comments.map(\.rawValue).joined(separator: " ")
        guard text.hasPrefix("Tick misuse: ") else { return false }
        reports.withLock { $0.append(text) }
        return true
    }
    return reports.current
}
