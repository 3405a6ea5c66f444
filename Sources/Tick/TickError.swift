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
}
