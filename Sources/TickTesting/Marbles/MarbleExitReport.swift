#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Tick

/// The backstop for a forgotten `flush()` under Swift Testing: the marble
/// expectation stores that had expectations stated inside a Swift Testing
/// test, held weakly, and a handler at process exit that fails the process
/// for any of their expectations still unchecked then.
///
/// Why at exit: Swift Testing gives a library no hook at the end of a test
/// (only a trait such as `.checksResourceLeaks`). A scheduler released
/// during the test reports its unchecked expectations in its store's
/// `deinit`, inside the test. One kept alive by the observable under test (a
/// time operator given the scheduler: its queue holds the observable, which
/// holds the scheduler) is never released, so the end of the process is the
/// first moment Tick knows it will never be checked. Nothing is reported
/// there for a store that was released (its `deinit` already reported or it
/// was all checked), flushed, or cleared by the leak trait, nor for
/// expectations stated outside Swift Testing (XCTest reports them in its
/// teardown; a tool outside a test runner flushes when it likes).
///
/// Each unchecked expectation gives one line on standard error in the
/// compiler's diagnostic form, so editors and CI logs link it to the `toBe`
/// line:
///
///     /path/Tests/MyTests.swift:12:9: error: marble expectation never checked: call `scheduler.flush()` (or use `scheduler.run { … }`) (in test MyTests.MySuite/delays())
///
/// and the process then exits with a failure status: 1 when it would have
/// succeeded, its own status otherwise (where the C library tells the exit
/// handler the status, as glibc's `on_exit` does; elsewhere always 1).
final class UncheckedAtExit: @unchecked Sendable {
    static let shared = UncheckedAtExit()

    private struct Entry {
        weak var store: MarbleExpectationStore?
    }

    // Every property is guarded by `lock`.
    private let lock = Lock()
    private var entries: [Entry] = []
    /// Released stores leave empty entries: they are swept when the list
    /// reaches this size (then twice the live count), so registering stays
    /// amortized constant time in a test run that makes many schedulers.
    private var sweepAt = 64
    private var handlerInstalled = false

    /// Lists `store` for the exit check (once per store: the store calls it
    /// at its first expectation stated in a Swift Testing test), installing
    /// the exit handler at the first call in the process.
    func register(_ store: MarbleExpectationStore) {
        let install = lock.withLock { () -> Bool in
            if entries.count >= sweepAt {
                entries.removeAll { $0.store == nil }
                sweepAt = max(64, entries.count * 2)
            }
            entries.append(Entry(store: store))
            defer { handlerInstalled = true }
            return !handlerInstalled
        }
        if install { Self.installExitHandler() }
    }

    /// One diagnostic line per expectation still unchecked in a listed store
    /// that is still alive, in the order the stores were listed.
    func uncheckedReport() -> [String] {
        let stores = lock.withLock { entries.compactMap(\.store) }
        return stores.flatMap { $0.uncheckedSwiftTestingExpectations() }.map { Self.diagnostic(site: $0.site, test: $0.test) }
    }

    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    static func diagnostic(site: CallSite, test: Test?) -> String {
        var line = "\(site.filePath):\(site.line):\(site.column): error: \(MarbleExpectationStore.neverCheckedMessage)"
        if let test {
            let id = test.id
            line += " (in test \(([id.moduleName] + id.nameComponents).joined(separator: ".")))"
        }
        return line
    }

    /// Runs in the exit handler: writes the report and makes the exit status
    /// a failure. `status` is the status the process is exiting with, when
    /// known.
    static func reportAtExit(status: Int32?) {
        let report = shared.uncheckedReport()
        guard !report.isEmpty else { return }
        let text =
            report.joined(separator: "\n") + "\n"
            + "error: \(report.count) marble expectation\(report.count == 1 ? " was" : "s were") never checked "
            + "(each scheduler was still alive at exit, kept by the observable under test): the test process fails.\n"
        writeToStandardError(text)
        guard status == nil || status == 0 else { return }
        // Exiting again from an exit handler is undefined; `_exit` ends the
        // process now, so flush what the C library still buffers first.
        fflush(nil)
        _exit(1)
    }

    private static func writeToStandardError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    private static func installExitHandler() {
        #if canImport(Glibc)
        // glibc's `on_exit` passes the exit status, so a run that already
        // failed keeps its own status.
        _ = on_exit({ status, _ in UncheckedAtExit.reportAtExit(status: status) }, nil)
        #else
        _ = atexit { UncheckedAtExit.reportAtExit(status: nil) }
        #endif
    }
}
