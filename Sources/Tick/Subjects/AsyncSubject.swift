/// Tells its subscribers only the last element it received, and only when it
/// completes: at completion every subscriber receives that element (if there
/// was one) and `completed`. Subscribers that come later receive the same.
/// An error is passed on as it is, to current and later subscribers.
///
/// Thread-safe like Tick's other subjects; calls to `on(_:)` must be
/// serialized by the caller.
public final class AsyncSubject<Element>: SubjectType {
    // Safe to share: `last` is guarded by `lock`; `output` is a thread-safe
    // subject that receives nothing before the terminal event.
    private let lock = Lock()
    private var last: Element?
    private var stopped = false
    private let output = ReplaySubject<Element>.create(bufferSize: 1)

    /// A subject with no subscribers.
    public init() {}

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { output.hasObservers }

    /// `true` once the subject received a terminal event.
    public var isStopped: Bool { lock.withLock { stopped } }

    /// Keeps `.next` elements (the latest one only); on `.completed` sends the
    /// latest element and the completion; passes `.error` on.
    public func on(_ event: Event<Element>) {
        let final: Element?? = lock.withLock {
            guard !stopped else { return nil }
            switch event {
            case .next(let element):
                last = element
                return nil
            case .error, .completed:
                stopped = true
                defer { last = nil }
                return .some(last)
            }
        }
        guard case .some(let element) = final else { return }
        if case .completed = event, let element { output.on(.next(element)) }
        output.on(event)
    }

    /// This subject as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        output.subscribe(observer)
    }
}

// @unchecked: every mutable field is guarded by a lock (`lock`, or the inner
// subject's), and no observer is called with it held. Sendable only when the elements are, since
// a subject hands each element to observers on other threads.
extension AsyncSubject: @unchecked Sendable where Element: Sendable {}
