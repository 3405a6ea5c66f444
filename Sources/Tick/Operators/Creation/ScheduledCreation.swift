// Creation operators that emit on a scheduler, and `from(optional:)`.

extension Observable {
    /// Emits `element`, then completes, on `scheduler`: the element in an
    /// action scheduled at subscription, the completion in the next one (as
    /// RxSwift does). On a `TestScheduler` both arrive at the subscription
    /// time (one frame apart each with `simulateProcessingDelay`).
    public static func just(_ element: Element, scheduler: any Scheduler) -> Observable<Element> {
        from(CollectionOfOne(element), scheduler: scheduler)
    }

    /// Emits `elements` on `scheduler`, one action per element, then
    /// completes in one more action (see ``from(_:scheduler:)``).
    public static func of(_ elements: Element..., scheduler: any Scheduler) -> Observable<Element> {
        from(elements, scheduler: scheduler)
    }

    /// Emits the elements of `sequence` on `scheduler`, one scheduled action
    /// per element, then completes in one more action.
    ///
    /// The sequence is iterated lazily, one element per action, and disposing
    /// cancels the pending action, so an endless sequence is fine with `take`.
    public static func from<S: Sequence>(_ sequence: S, scheduler: any Scheduler) -> Observable<Element>
    where S.Element == Element {
        Observable { observer in
            let sink = ScheduledSequenceSink(downstream: observer, iterator: sequence.makeIterator(), scheduler: scheduler)
            sink.scheduleStep()
            return sink
        }
    }

    /// Emits the wrapped value and completes, or just completes if `optional`
    /// is `nil`.
    public static func from(optional: Element?) -> Observable<Element> {
        optional.map { just($0) } ?? empty()
    }

    /// ``from(optional:)`` on `scheduler` (see ``from(_:scheduler:)``).
    public static func from(optional: Element?, scheduler: any Scheduler) -> Observable<Element> {
        from(optional.map { [$0] } ?? [], scheduler: scheduler)
    }
}


/// `from(_:scheduler:)`: one scheduled action per element.
final class ScheduledSequenceSink<Iterator: IteratorProtocol>: Sink<Iterator.Element>, @unchecked Sendable {
    // Touched only by the scheduled steps, which run one at a time (each step
    // schedules the next).
    private var iterator: Iterator
    private let scheduler: any Scheduler
    private let pending = SerialDisposable()

    init(downstream: AnyObserver<Iterator.Element>, iterator: Iterator, scheduler: any Scheduler) {
        self.iterator = iterator
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func scheduleStep() {
        // Installed before scheduling, so a scheduler that runs the action at
        // once (and so schedules the next step) cannot be overwritten by it.
        let step = SingleAssignmentDisposable()
        pending.disposable = step
        step.setDisposable(scheduler.schedule { [self] in self.step() })
    }

    private func step() {
        guard !isDisposed else { return }
        if let element = iterator.next() {
            forwardNext(element)
            if !isDisposed { scheduleStep() }
        } else {
            forwardCompleted()
        }
    }

    override func disposeResources() { pending.dispose() }
}
