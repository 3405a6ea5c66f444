/// How long ``ObservableType/share(replay:scope:)`` keeps its subject.
public enum SubjectLifetimeScope: Sendable {
    /// The shared subscription, and its replay buffer, live while at least
    /// one observer is subscribed and the source has not terminated. The next
    /// subscriber after that starts afresh: a new source subscription and an
    /// empty buffer.
    case whileConnected
    /// One subject for the life of the shared observable: after the source
    /// terminated, new subscribers receive the replay buffer and the terminal
    /// event, and the source is not subscribed again (as in RxSwift, whose
    /// `refCount` does not connect for a subscriber that the subject already
    /// ended); after all observers left, the buffer is kept and the source is
    /// subscribed again by the next subscriber.
    case forever
}

/// An observable whose subscribers share one subscription to a source, made
/// only when ``connect()`` is called.
///
/// ``ConnectableObservable`` is Tick's own; conform another type to get
/// ``refCount()`` for it.
public protocol ConnectableObservableType<Element>: ObservableType {
    /// Subscribes the shared source, if it is not already, and returns the
    /// connection: disposing it disposes that source subscription.
    func connect() -> any Disposable
}

/// An observable that subscribes its source only when ``connect()`` is
/// called, and shares that one subscription, through a subject, with all its
/// subscribers.
///
/// Subscribing to it subscribes to the subject (and never to the source).
public final class ConnectableObservable<Element>: ConnectableObservableType, @unchecked Sendable {
    /// The two sides of a subject, type-erased.
    struct Subject {
        let observer: AnyObserver<Element>
        let observable: Observable<Element>
    }

    private let source: Observable<Element>
    private let makeSubject: () -> Subject
    /// Whether a terminated or disconnected connection drops its subject, so
    /// the next connection starts with a new one.
    private let freshSubjectPerConnection: Bool
    private let lock = Lock()
    // Guarded by `lock`:
    private var subject: Subject?
    private var connection: Connection?

    init(source: Observable<Element>, freshSubjectPerConnection: Bool, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        self.freshSubjectPerConnection = freshSubjectPerConnection
    }

    private func currentSubjectLocked() -> Subject {
        if let subject { return subject }
        let new = makeSubject()
        subject = new
        return new
    }

    /// This connectable observable as an ``Observable`` (it keeps the grammar itself).
    public func asObservable() -> Observable<Element> { passThroughObservable() }

    /// Subscribes `observer` to the current subject (creating it if there is
    /// none yet); does not connect.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let subject = lock.withLock { currentSubjectLocked() }
        return subject.observable.subscribe(observer)
    }

    /// Subscribes the source to the subject, if it is not already connected,
    /// and returns the connection: disposing it disposes the source
    /// subscription. Calling `connect()` while connected returns the current
    /// connection.
    @discardableResult
    public func connect() -> any Disposable {
        let (current, subject, isNew): (Connection, Subject, Bool) = lock.withLock {
            if let connection { return (connection, currentSubjectLocked(), false) }
            let new = Connection(parent: self)
            connection = new
            return (new, currentSubjectLocked(), true)
        }
        if isNew {
            current.attach(source.subscribe(AnyObserver { [self] event in
                if event.isStopEvent { ended(current) }
                subject.observer.on(event)
                if event.isStopEvent { current.dispose() }
            }))
        }
        return current
    }

    /// Ends `connection` if it is the current one.
    fileprivate func ended(_ connection: Connection) {
        lock.withLock {
            guard self.connection === connection else { return }
            self.connection = nil
            if freshSubjectPerConnection { subject = nil }
        }
    }

    final class Connection: Disposable, @unchecked Sendable {
        private weak var parent: ConnectableObservable?
        private let subscription = SingleAssignmentDisposable()

        init(parent: ConnectableObservable) { self.parent = parent }

        func attach(_ disposable: any Disposable) { subscription.setDisposable(disposable) }

        func dispose() {
            parent?.ended(self)
            subscription.dispose()
        }
    }
}

extension ConnectableObservableType {
    /// An observable that connects this one when its first observer
    /// subscribes and disconnects it when its last observer leaves.
    ///
    /// When the shared sequence terminates, the count starts again from zero
    /// before the terminal event is delivered (as in RxSwift): an observer
    /// that subscribes again from inside its completion or error handler, or
    /// any later one, makes a new connection.
    public func refCount() -> Observable<Element> {
        let state = RefCountState(source: self)
        return Observable { observer in state.subscribe(observer) }
    }
}

/// The shared count of a `refCount()` observable.
final class RefCountState<Source: ConnectableObservableType>: @unchecked Sendable {
    typealias Element = Source.Element
    private let source: Source
    private let lock = Lock()
    // Guarded by `lock`:
    private var count = 0
    private var connection: (any Disposable)?
    /// Advances each time the count goes back to zero, so that late releases
    /// from an earlier connection are ignored.
    private var epoch: UInt64 = 0

    init(source: Source) { self.source = source }

    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        let (shouldConnect, epoch): (Bool, UInt64) = lock.withLock {
            count += 1
            return (count == 1, self.epoch)
        }
        let sink = RefCountSink(
            downstream: observer,
            onTerminal: { [self] in reset(epoch: epoch) },
            onRelease: { [self] in release(epoch: epoch) })
        sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
        if shouldConnect && !sink.isDisposed {
            let connection = source.connect()
            let keep: Bool = lock.withLock {
                guard self.epoch == epoch, count > 0 else { return false }
                self.connection = connection
                return true
            }
            if !keep { connection.dispose() }
        }
        return sink
    }

    /// The shared sequence terminated: every current observer is done.
    private func reset(epoch: UInt64) {
        let toDispose: (any Disposable)? = lock.withLock {
            guard self.epoch == epoch else { return nil }
            count = 0
            self.epoch &+= 1
            defer { connection = nil }
            return connection
        }
        toDispose?.dispose()
    }

    private func release(epoch: UInt64) {
        let toDispose: (any Disposable)? = lock.withLock {
            guard self.epoch == epoch else { return nil }
            count -= 1
            guard count == 0 else { return nil }
            self.epoch &+= 1
            defer { connection = nil }
            return connection
        }
        toDispose?.dispose()
    }
}

final class RefCountSink<Element>: Sink<Element>, @unchecked Sendable {
    private let onTerminal: () -> Void
    /// Written only by the one call to `disposeResources`.
    private var onRelease: (() -> Void)?

    init(downstream: AnyObserver<Element>, onTerminal: @escaping () -> Void, onRelease: @escaping () -> Void) {
        self.onTerminal = onTerminal
        self.onRelease = onRelease
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent && !isDisposed { onTerminal() }
        forward(event)
    }

    override func disposeResources() {
        let release = onRelease
        onRelease = nil
        release?()
    }
}

extension ObservableType {
    /// Shares one subscription to the source among all observers, replaying
    /// the latest `replay` elements to each new one.
    ///
    /// The source is subscribed when the first observer subscribes, and the
    /// subscription is disposed when the last one leaves. `scope` decides what
    /// happens after that or after the source terminated: see
    /// ``SubjectLifetimeScope``. A negative `replay` is treated as 0.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        let make = Self.subjectFactory(replay: replay)
        switch scope {
        case .whileConnected:
            return ConnectableObservable(source: asObservable(), freshSubjectPerConnection: true, makeSubject: make)
                .refCount()
        case .forever:
            let subject = make()
            return ConnectableObservable(source: asObservable(), freshSubjectPerConnection: false) { subject }
                .refCount()
        }
    }

    static func subjectFactory(replay: Int) -> () -> ConnectableObservable<Element>.Subject {
        {
            if replay <= 0 {
                let subject = PublishSubject<Element>()
                return .init(observer: subject.asObserver(), observable: subject.asObservable())
            }
            let subject = ReplaySubject<Element>.create(bufferSize: replay)
            return .init(observer: subject.asObserver(), observable: subject.asObservable())
        }
    }

    /// A connectable observable that shares the source through `subject`
    /// (the same subject for every connection).
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Element>
    where Subject.Element == Element {
        ConnectableObservable(source: asObservable(), freshSubjectPerConnection: false) {
            .init(observer: subject.asObserver(), observable: subject.asObservable())
        }
    }

    /// A connectable observable that shares the source through a subject made
    /// by `makeSubject` for each connection (a new one after the source
    /// terminated or the connection was disposed).
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Element>
    where Subject.Element == Element {
        ConnectableObservable(source: asObservable(), freshSubjectPerConnection: true) {
            let subject = makeSubject()
            return .init(observer: subject.asObserver(), observable: subject.asObservable())
        }
    }

    /// A connectable observable that shares the source through a subject made
    /// by `subjectFactory` for each connection, and the sequence `selector`
    /// builds from it: each subscription gets its own subject and connection,
    /// made after `selector`'s sequence was subscribed (RxSwift's
    /// `multicast(_:selector:)`). An error thrown by either closure fails the
    /// subscription.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectFactory: @escaping () throws -> Subject,
        selector: @escaping (Observable<Element>) throws -> Observable<Result>,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Result> where Subject.Element == Element {
        let source = asObservable()
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "multicast")
        let subjectFactory = check?.wrap(subjectFactory) ?? subjectFactory
        let selector = check?.wrap(selector) ?? selector
        return Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            let connectable: ConnectableObservable<Element>
            let shared: Observable<Result>
            do {
                let subject = try subjectFactory()
                connectable = ConnectableObservable(source: source, freshSubjectPerConnection: false) {
                    .init(observer: subject.asObserver(), observable: subject.asObservable())
                }
                shared = try selector(connectable.asObservable())
            } catch {
                sink.forwardError(error)
                return sink
            }
            let subscription = shared.subscribe(AnyObserver(eventHandler: sink.forward))
            sink.setUpstream(Disposables.create(subscription, connectable.connect()))
            return sink
        }
    }

    /// A connectable observable sharing the source through a new
    /// `PublishSubject` for each connection (as in RxSwift: after a
    /// disconnection or a terminal event, the next connection starts afresh
    /// and earlier observers do not see it).
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject<Element>() })
    }

    /// A connectable observable sharing the source through a new
    /// `ReplaySubject` of `bufferSize` elements for each connection.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize) })
    }

    /// A connectable observable sharing the source through a new
    /// `ReplaySubject` that replays every element, for each connection.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.createUnbounded() })
    }
}
