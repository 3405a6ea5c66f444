/// What an iteration of an observable's `values` throws when the
/// `TestScheduler` it waits on is released under it, with work still
/// pending: the next element would never come (Docs/AsyncAwait.md, "What
/// escapes"). The release is also reported as a test failure.
///
/// ```swift
/// var task: Task<Int?, any Error>?
/// do {
///     let scheduler = TestScheduler()
///     let timer = Observable<Int>.timer(.seconds(1), scheduler: scheduler)
///     let iterator = timer.values.makeAsyncIterator()  // holds no scheduler
///     task = Task {
///         var iterator = iterator
///         return try await iterator.next()
///     }
///     await scheduler.advance(by: .milliseconds(1))
/// }   // the scheduler goes here: a failure, and next() throws this error
/// ```
public struct TestSchedulerReleasedError: Error, CustomStringConvertible {
    /// The scheduled actions that went away with the scheduler.
    public let pending: Int

    /// The error's explanation.
    public var description: String {
        "the TestScheduler this iteration waited on was released with \(pending) scheduled action\(pending == 1 ? "" : "s") pending"
    }
}
