/// How long ``ObservableType/share(replay:scope:)`` keeps its subject.
public enum SubjectLifetimeScope: Sendable {
    /// The shared subscription, and its replay buffer, live while at least
    /// one observer is subscribed and the source has not terminated. The next
    /// subscriber after that starts afresh: a new source subscription and an
    /// empty buffer.
    case whileConnected
    /// One subject for the life of the shared observable: after the source
    /// terminated, new subscribers receive the replay buffer and the terminal
    /// event; after all observers left, the buffer is kept and the source is
    /// subscribed again by the next subscriber.
    case forever
}

/// An observable that subscribes its source only when ``connect()`` is
/// called, and shares that one subscription, through a subject, with all its
/// subscribers.
///
/// Subscribing to it subscribes to the subject (and never to the source).
public final class ConnectableObservable<Element>: ObservableType, @unchecked Sendable {
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

    /// An observable that connects this one when its first observer
    /// subscribes and disconnects it when its last observer leaves.
    public func refCount() -> Observable<Element> {
        let state = RefCountState(parent: self)
        return Observable { observer in state.subscribe(observer) }
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

/// The shared count of a `refCount()` observable.
final class RefCountState<Element>: @unchecked Sendable {
    private let parent: ConnectableObservable<Element>
    private let lock = Lock()
    private var count = 0
    private var connection: (any Disposable)?
    private var epoch: UInt64 = 0

    init(parent: ConnectableObservable<Element>) { self.parent = parent }

    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        let sink = RefCountSink(downstream: observer)
        let shouldConnect: Bool = lock.withLock {
            count += 1
            return count == 1
        }
        let epoch = lock.withLock { self.epoch }
        sink.onRelease = { [self] in release(epoch: epoch) }
        sink.setUpstream(parent.subscribe(AnyObserver(eventHandler: sink.forward)))
        if shouldConnect && !sink.isDisposed {
            let connection = parent.connect()
            let keep: Bool = lock.withLock {
                guard self.epoch == epoch, count > 0 else { return false }
                self.connection = connection
                return true
            }
            if !keep { connection.dispose() }
        }
        return sink
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
    var onRelease: (() -> Void)?

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

    /// A connectable observable sharing the source through a `PublishSubject`.
    public func publish() -> ConnectableObservable<Element> {
        multicast(PublishSubject<Element>())
    }

    /// A connectable observable sharing the source through a `ReplaySubject`
    /// of `bufferSize` elements.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(ReplaySubject<Element>.create(bufferSize: bufferSize))
    }

    /// A connectable observable sharing the source through a `ReplaySubject`
    /// that replays every element.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(ReplaySubject<Element>.createUnbounded())
    }
}
