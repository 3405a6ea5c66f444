import Tick

/// An observer that records every event it receives with the virtual time of
/// its scheduler.
public final class TestableObserver<Element>: ObserverType {
    /// The scheduler whose clock timestamps the events.
    public let scheduler: TestScheduler
    @usableFromInline let lock = Lock()
    /// Guarded by `lock` (runtime exclusivity checks are off).
    @usableFromInline @exclusivity(unchecked) var recorded: [Recorded<Event<Element>>] = []

    @usableFromInline
    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Everything received so far, in order, with its time.
    public var events: [Recorded<Event<Element>>] { lock.withLock { recorded } }

    @inlinable
    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        lock.withLock { recorded.append(Recorded(time: time, value: event)) }
    }
}

extension TestScheduler {
    /// A new observer that records events with this scheduler's clock.
    @inlinable
    public func createObserver<Element>(_ type: Element.Type = Element.self) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Runs the standard RxTest scenario: creates the observable at `created`,
    /// subscribes at `subscribed`, disposes at `disposed`, and runs until
    /// nothing is pending. Returns the observer that recorded everything.
    public func start<Source: ObservableType>(
        created: TestTime = 100, subscribed: TestTime = 200, disposed: TestTime = 1000,
        _ create: @escaping () -> Source,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestableObserver<Source.Element> {
        let observer = createObserver(Source.Element.self)
        var source: Source?
        var subscription: (any Disposable)?
        scheduleAt(created) { source = create() }
        scheduleAt(subscribed) { subscription = source?.subscribe(observer) }
        scheduleAt(disposed) {
            subscription?.dispose()
            subscription = nil
            source = nil
        }
        run(fileID: fileID, filePath: filePath, line: line, column: column)
        return observer
    }

    /// ``start(created:subscribed:disposed:_:fileID:filePath:line:column:)``
    /// with only the disposal time changed.
    public func start<Source: ObservableType>(
        disposed: TestTime, _ create: @escaping () -> Source,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestableObserver<Source.Element> {
        start(
            created: 100, subscribed: 200, disposed: disposed, create,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

// @unchecked: `recorded` is guarded by `lock`. Sendable only when the elements
// are, since they are recorded on one thread and read on another.
extension TestableObserver: @unchecked Sendable where Element: Sendable {}
