/// A value (usually an ``Event``) recorded at a ``TestTime``.
///
/// Written RxTest-style in tests: `.next(210, "a")`, `.completed(250)`,
/// `.error(230, MyError())`.
public struct Recorded<Value>: CustomStringConvertible {
    /// When it happened.
    public let time: TestTime
    /// What happened.
    public let value: Value

    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    public var description: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Sendable where Value: Sendable {}

extension Recorded {
    /// A `next(element)` event at `time`.
    public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// A `completed` event at `time`.
    public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .completed)
    }

    /// An `error` event at `time`.
    public static func error<Element>(_ time: TestTime, _ error: any Error, _ type: Element.Type = Element.self)
        -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .error(error))
    }
}

/// When a test observable was subscribed to and (if it was) unsubscribed from.
public struct Subscription: Hashable, Sendable, CustomStringConvertible {
    /// The time of subscription.
    public let subscribe: TestTime
    /// The time of disposal, or `nil` if the subscription is still alive.
    public let unsubscribe: TestTime?

    /// A subscription made at `subscribe` and disposed at `unsubscribe` (nil: never).
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime? = nil) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    public var description: String {
        "(\(subscribe) : \(unsubscribe.map(\.description) ?? "never"))"
    }
}

/// A recorded error for tests that only need *an* error. Equal to every other
/// `TestError` with the same code.
public struct TestError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Distinguishes errors in one test.
    public let code: Int
    public init(_ code: Int = 0) { self.code = code }
    public var description: String { "TestError(\(code))" }

    /// `TestError()` already boxed as `any Error`: the default `error:` of
    /// the marble API. Boxing a struct error allocates, so a default
    /// written `TestError()` cost every `cold`, `hot` and `toBe` call two
    /// allocations.
    @usableFromInline static let boxedDefault: any Error = TestError()
}

extension Recorded {
    /// The recorded events given, as an array: for when type inference needs
    /// a hand, as RxTest's `Recorded.events(…)`:
    ///
    /// ```swift
    /// let expected = Recorded.events(.next(210, 2), .next(220, 3), .completed(250))
    /// ```
    public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...) -> [Recorded<Event<Element>>]
    where Value == Event<Element> {
        recordedEvents
    }

    /// The recorded events of `recordedEvents`, as they are (RxTest's array
    /// form of ``events(_:)-(Recorded<Event<Element>>...)``).
    public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>]) -> [Recorded<Event<Element>>]
    where Value == Event<Element> {
        recordedEvents
    }

    /// A `next(element)` event at time 0: for event lists whose times do not
    /// matter (RxSwift's test helpers' time-less form).
    public static func next<Element>(_ element: Element) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: 0, value: .next(element))
    }

    /// A `completed` event at time 0 (time-less form).
    public static func completed<Element>(_ type: Element.Type = Element.self) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: 0, value: .completed)
    }

    /// An `error` event at time 0 (time-less form).
    public static func error<Element>(_ error: any Error, _ type: Element.Type = Element.self) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: 0, value: .error(error))
    }
}
