import Tick

// RxTest's spellings of running a test scheduler, so RxTest code ports
// unchanged. Tick's own names are `run()` and `advance(to:)`.

extension TestScheduler {
    /// Runs scheduled work until nothing is pending: RxTest's `start()`,
    /// the same as ``run(fileID:filePath:line:column:)``.
    public func start(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        run(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Runs everything due up to and including `time`, then sets the clock to
    /// `time`: RxTest's `advanceTo(_:)`, the same as
    /// ``advance(to:fileID:filePath:line:column:)-(TestTime,_,_,_,_)``.
    public func advanceTo(
        _ time: TestTime,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        advance(to: time, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
