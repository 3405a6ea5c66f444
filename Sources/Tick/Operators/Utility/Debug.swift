/// Where ``ObservableType/debug(_:trimOutput:fileID:line:function:)`` writes
/// its lines.
///
/// The output is a task-local value, so a test can read the lines of the
/// operators it creates without affecting tests running in parallel:
///
///     let lines = DebugOutput.capture { ... }
///
/// A `debug` operator reads the output when it is *created*; events it prints
/// later (on any thread) go to that output.
public enum DebugOutput {
    /// The current output: `print` unless replaced for a task with
    /// `DebugOutput.$write.withValue(_:operation:)` or ``capture(_:)``.
    @TaskLocal public static var write: @Sendable (String) -> Void = { print($0) }

    /// Runs `body` with the output replaced by a buffer, and returns the lines
    /// written to it by the `debug` operators created inside `body`.
    public static func capture(_ body: () throws -> Void) rethrows -> [String] {
        let buffer = LineBuffer()
        try $write.withValue({ buffer.append($0) }, operation: body)
        return buffer.lines
    }

    /// A thread-safe list of lines.
    final class LineBuffer: @unchecked Sendable {
        // Safe to share: `storage` is only touched under `lock`.
        private let lock = Lock()
        private var storage: [String] = []

        func append(_ line: String) { lock.withLock { storage.append(line) } }
        var lines: [String] { lock.withLock { storage } }
    }
}

extension ObservableType {
    /// Writes every event, the subscription and the disposal to
    /// ``DebugOutput``, as `identifier -> subscribed`,
    /// `identifier -> Event next(1)`, `identifier -> Event completed`,
    /// `identifier -> isDisposed`.
    ///
    /// - Parameters:
    ///   - identifier: the prefix of each line; by default the call site
    ///     (`file:line (function)`).
    ///   - trimOutput: shortens event descriptions longer than 40 characters
    ///     to their first and last 20 characters around `...`.
    ///
    /// Unlike RxSwift, the lines carry no wall-clock timestamp, so they can be
    /// compared in tests.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        fileID: String = #fileID, line: UInt = #line, function: String = #function
    ) -> Observable<Element> {
        let name = identifier ?? "\(fileID):\(line) (\(function))"
        let write = DebugOutput.write
        let source = asObservable()
        func describe(_ event: Event<Element>) -> String {
            let text = event.description
            guard trimOutput, text.count > 40 else { return text }
            return String(text.prefix(20)) + "..." + String(text.suffix(20))
        }
        return Observable { observer in
            write("\(name) -> subscribed")
            let sink = AnonymousSink(downstream: observer)
            let subscription = source.subscribe(AnyObserver { event in
                write("\(name) -> Event \(describe(event))")
                sink.forward(event)
            })
            sink.setUpstream(Disposables.create(with: {
                subscription.dispose()
                write("\(name) -> isDisposed")
            }))
            return sink
        }
    }
}
