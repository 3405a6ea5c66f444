// MARK: Sources that a closure subscription runs itself
//
// `timer(...).subscribe(onNext: ...)` used to make three objects per
// subscription: the timer's sink, the closure subscription's sink, and
// (through `AnyObserver`) a hop between them for every event. A source that
// only schedules work and sends its events to one observer does not need a
// sink of its own when that observer is a closure subscription: the
// `ClosureSink` can hold the scheduled work as its upstream and receive the
// events directly. Such a source is recorded on its observable
// (`Observable.nesting`, the slot for what a subscriber may take over), and
// `subscribe(onNext:onError:onCompleted:onDisposed:isolation:)` with no
// isolation runs it through the trampoline exactly as it would subscribe the
// observable. Anything else (an operator in between, `subscribe(observer)`,
// an isolated subscription) subscribes the observable as usual, which makes
// the source's own sink.
//
// One object, not two: the source is itself a `ClosureSink`, unclaimed, and
// the first closure subscription of its observable claims it as its sink
// (`ClosureSink.claim`). A one-shot timer subscribed with `subscribe(onNext:)`
// is then the source, which is also its subscription's disposable and its
// scheduled action's only capture (a closure whose one capture is a Swift
// object uses that object as its context: no allocation). Later
// subscriptions of the same observable make a `ClosureSink` each, as before.

/// A source that a closure subscription may run itself, delivering into its
/// ``ClosureSink`` with no sink of the source's own in between (see above),
/// and the sink of its own first closure subscription. Abstract: a timer's
/// sources (``OneShotTimerSource``, ``PeriodicTimerSource``) are the kinds.
// @unchecked Sendable: as its base class `ClosureSink`'s (it adds no state).
@usableFromInline
class DirectSource<Element>: ClosureSink<Element>, @unchecked Sendable {
    /// An unclaimed source (see `ClosureSink`, "A direct source's own sink").
    @usableFromInline override init() { super.init() }

    /// Starts the source for `sink` and returns its upstream subscription,
    /// which `sink` disposes when it ends. The events must be those, in the
    /// same order and at the same moments, that subscribing the observable
    /// would send through the source's own sink. (Overridden; the base class
    /// is never instantiated.)
    func subscribeDirect(_ sink: ClosureSink<Element>) -> any Disposable { NopDisposable() }

    /// Subscribes `sink` (a closure subscription's) to this source and
    /// returns the upstream subscription: through the trampoline, as
    /// subscribing the observable would
    /// (`CurrentThreadScheduler.subscribe(direct:_:)`). Overridden by a
    /// source that may skip the trampoline (``OneShotTimerSource``), so that
    /// the decision costs one virtual call.
    @usableFromInline
    func start(_ sink: ClosureSink<Element>) -> any Disposable {
        CurrentThreadScheduler.subscribe(direct: self, sink)
    }

    /// Starts the source for its own first closure subscription (the
    /// source is the sink: ``ClosureSink/claim()``) and sets the upstream:
    /// `setUpstream(start(self))`, which a source may do in one call
    /// (``OneShotTimerSource``).
    @usableFromInline
    func startAsOwnSink() { setUpstream(start(self)) }
}
