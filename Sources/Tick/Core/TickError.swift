/// Errors that Tick's operators produce themselves.
public enum TickError: Error, Equatable, Sendable {
    /// `element(at:)` found fewer elements than its index.
    case argumentOutOfRange
    /// `timeout` saw no element within the allowed time.
    case timeout
    /// A sequence expected to have elements had none.
    case noElements
    /// A sequence expected to have at most one element had more (`asSingle()`,
    /// `asMaybe()`, `single()`), as RxSwift's `RxError.moreThanOneElement`.
    case moreThanOneElement
    /// An operator's closure was written on the main actor (so it may touch
    /// main-actor state), but its events arrived off the main thread: Tick did
    /// not call the closure, reported the misuse, and ended the sequence with
    /// this error. `operator` names the operator (`"map"`, `"filter"`, …).
    ///
    /// Fix it by moving the events to the main thread before the operator
    /// (`observe(on: MainScheduler.instance)`), or, for a closure that does not
    /// use main-actor state, by passing `isolation: nil` to the operator
    /// (Docs/Concurrency.md, "What Tick checks and what it trusts").
    case isolationViolation(operator: String)
}
