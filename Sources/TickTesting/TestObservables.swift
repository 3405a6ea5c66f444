import Tick

/// A test observable: it emits recorded events on a ``TestScheduler`` and logs
/// every subscription. ``TestableObservable`` is the class both kinds share.
public protocol TestableObservableType<Element>: ObservableType {
    /// The events it emits.
    var recordedEvents: [Recorded<Event<Element>>] { get }
    /// Every subscription made to it, with subscribe and unsubscribe times.
    var subscriptions: [Subscription] { get }
}

/// A subscription log: every subscription with its subscribe and
/// unsubscribe times. Not thread-safe itself: its owner guards it (a
/// ``SubscriptionLog``, or a cold observable's lock). The first
/// subscription is kept inline, the others in `more`: most test observables
/// are subscribed once, and an array allocates its storage for the first
/// element.
@usableFromInline
struct SubscriptionEntries {
    private var first: Subscription?
    private var more: [Subscription] = []

    @usableFromInline init() {}

    var all: [Subscription] {
        guard let first else { return [] }
        return [first] + more
    }

    /// Logs a subscription at `time`; returns its index.
    @usableFromInline
    mutating func subscribed(at time: TestTime) -> Int {
        guard first != nil else {
            first = Subscription(time)
            return 0
        }
        more.append(Subscription(time))
        return more.count
    }

    /// Logs the end of the subscription at `index`.
    @usableFromInline
    mutating func unsubscribed(_ index: Int, at time: TestTime) {
        if index == 0, let entry = first {
            first = Subscription(entry.subscribe, time)
        } else {
            more[index - 1] = Subscription(more[index - 1].subscribe, time)
        }
    }
}

/// A hot observable's subscription log, with its own lock.
@usableFromInline
final class SubscriptionLog: @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock` (runtime exclusivity checks are off).
    @exclusivity(unchecked) private var entries = SubscriptionEntries()

    @usableFromInline init() {}

    var all: [Subscription] { lock.withLock { entries.all } }

    @usableFromInline
    func subscribed(at time: TestTime) -> Int { lock.withLock { entries.subscribed(at: time) } }

    @usableFromInline
    func unsubscribed(_ index: Int, at time: TestTime) { lock.withLock { entries.unsubscribed(index, at: time) } }
}

// MARK: - Test observables where an Observable is expected
//
// `Observable` is a struct, so a test observable cannot be a subclass of it.
// Instead, each way of making one has a second form that returns an
// `Observable` and is chosen only where the context asks for one: passed to
// a parameter of type `Observable<Element>`, returned from a closure that
// must return one (`flatMap { _ in scheduler.cold("--x|") }`), or stored in
// a constant declared `let query: Observable<String>`. Everywhere else (a
// plain `let source = scheduler.hot(…)`) the test observable itself is made,
// with its `subscriptions` and `recordedEvents`. Every operator is defined
// on `ObservableType`, which both test observables conform to, so they need
// no conversion for operators or for APIs generic over `ObservableType`.
// What remains is a test observable already bound to a constant of its own
// type and then passed where an `Observable` is required: that takes
// `.asObservable()` (or declare the parameter `some ObservableType<Element>`).

extension TestScheduler {
    /// ``cold(_:values:error:fileID:filePath:line:column:)`` where an
    /// `Observable` is expected: `ViewModel(query: scheduler.cold("-a|", values: …))`.
    @_disfavoredOverload @inlinable
    public func cold<Element>(
        _ diagram: String, values: [Character: Element], error: any Error = TestError.boxedDefault,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Observable<Element> {
        let source: ColdObservable<Element> = cold(
            diagram, values: values, error: error, fileID: fileID, filePath: filePath, line: line, column: column)
        return source.asObservable()
    }

    /// ``cold(_:error:fileID:filePath:line:column:)`` where an `Observable`
    /// is expected: `ViewModel(query: scheduler.cold("-a-b|"))`.
    @_disfavoredOverload
    public func cold(
        _ diagram: String, error: any Error = TestError.boxedDefault,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Observable<String> {
        let source: ColdObservable<String> = cold(
            diagram, values: [:], error: error, fileID: fileID, filePath: filePath, line: line, column: column)
        return source.asObservable()
    }

    /// ``hot(_:values:error:fileID:filePath:line:column:)`` where an
    /// `Observable` is expected: `ViewModel(query: scheduler.hot("-a|", values: …))`.
    @_disfavoredOverload @inlinable
    public func hot<Element>(
        _ diagram: String, values: [Character: Element], error: any Error = TestError.boxedDefault,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Observable<Element> {
        let source: HotObservable<Element> = hot(
            diagram, values: values, error: error, fileID: fileID, filePath: filePath, line: line, column: column)
        return source.asObservable()
    }

    /// ``hot(_:error:fileID:filePath:line:column:)`` where an `Observable` is
    /// expected: `ViewModel(query: scheduler.hot("-a-b|"))`.
    @_disfavoredOverload
    public func hot(
        _ diagram: String, error: any Error = TestError.boxedDefault,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Observable<String> {
        let source: HotObservable<String> = hot(
            diagram, values: [:], error: error, fileID: fileID, filePath: filePath, line: line, column: column)
        return source.asObservable()
    }

    /// ``createHotObservable(_:)`` where an `Observable` is expected.
    @_disfavoredOverload @inlinable
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> Observable<Element> {
        let source: HotObservable<Element> = createHotObservable(events)
        return source.asObservable()
    }

    /// ``createColdObservable(_:)`` where an `Observable` is expected.
    @_disfavoredOverload
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> Observable<Element> {
        let source: ColdObservable<Element> = createColdObservable(events)
        return source.asObservable()
    }
}
