/// What an iteration of an observable's `values` throws when the
/// `TestScheduler` it waits on is released under it, with work still
/// pending: the next element would never come (Docs/AsyncAwait.md, "What
/// escapes"). The release is also reported as a test failure.
///
/// ```swift
/// do {
///     let scheduler = TestScheduler()
///     let ticks = Observable<Int>.interval(.seconds(1), scheduler: scheduler).values
///     task = Task { for try await tick in ticks { print(tick) } }
///     await scheduler.advance(by: .milliseconds(1))
/// }   // the scheduler goes here: the loop throws TestSchedulerReleasedError
/// ```
public struct TestSchedulerReleasedError: Error, CustomStringConvertible {
    /// The scheduled actions that went away with the scheduler.
    public let pending: Int

    /// The error's explanation.
    public var description: String {
        "the TestScheduler this iteration waited on was released with \(pending) scheduled action\(pending == 1 ? "" : "s") pending"
    }
}
