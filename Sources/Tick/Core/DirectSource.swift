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

/// A source that a closure subscription may run itself, delivering into its
/// ``ClosureSink`` with no sink of the source's own in between (see above).
/// Abstract: ``TimerSource`` is the one kind.
@usableFromInline
class DirectSource<Element>: NestedSources {
    @usableFromInline override init() {}

    /// Starts the source for `sink` and returns its upstream subscription,
    /// which `sink` disposes when it ends. The events must be those, in the
    /// same order and at the same moments, that subscribing the observable
    /// would send through the source's own sink. (Overridden; the base class
    /// is never instantiated.)
    func subscribeDirect(_ sink: ClosureSink<Element>) -> any Disposable { NopDisposable() }
}
