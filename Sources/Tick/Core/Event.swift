/// One thing an observable sequence can tell its observer.
///
/// A sequence sends any number of ``next(_:)`` events followed by at most one
/// terminal event, ``error(_:)`` or ``completed``. Nothing follows a terminal
/// event; Tick's sinks enforce that rule.
public enum Event<Element> {
    /// An element of the sequence.
    case next(Element)
    /// The sequence failed; nothing follows.
    case error(any Error)
    /// The sequence finished; nothing follows.
    case completed
}

extension Event: Sendable where Element: Sendable {}

extension Event {
    /// `true` for ``error(_:)`` and ``completed``.
    @inlinable
    public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The element of a ``next(_:)`` event, otherwise `nil`.
    @inlinable
    public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// The error of an ``error(_:)`` event, otherwise `nil`.
    @inlinable
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// `true` for ``completed``.
    @inlinable
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a ``next(_:)`` event; a thrown error becomes an
    /// ``error(_:)`` event. Terminal events pass through unchanged.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        switch self {
        case .next(let element):
            do { return .next(try transform(element)) } catch { return .error(error) }
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

extension Event: Equatable where Element: Equatable {
    /// Two events are equal when they are the same case with equal payloads.
    /// Errors compare with ``errorsAreEqual(_:_:)``.
    // Inlinable, so that a comparison in another module (a testable
    // observer's events, marble expectations) is specialized for the
    // element type: unspecialized, each comparison looked up
    // `Event<Element>`'s metadata.
    @inlinable
    public static func == (lhs: Event, rhs: Event) -> Bool {
        switch (lhs, rhs) {
        case (.next(let l), .next(let r)): return l == r
        case (.error(let l), .error(let r)): return errorsAreEqual(l, r)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

extension Event: CustomStringConvertible {
    public var description: String {
        switch self {
        case .next(let element): return "next(\(element))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

/// The rule Tick uses to compare errors in tests.
///
/// Two errors are equal when they have the same dynamic type and
/// - if that type is `Equatable`, they are `==`;
/// - otherwise their `String(describing:)` texts are the same.
public func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
    guard type(of: lhs) == type(of: rhs) else { return false }
    // Cast through `Any`: the optimizer wrongly claims an `any Error` to
    // `any Equatable` cast always succeeds (a release-build warning).
    if let equatable = (lhs as Any) as? any Equatable {
        return equatable.isEqual(to: rhs)
    }
    return String(describing: lhs) == String(describing: rhs)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
