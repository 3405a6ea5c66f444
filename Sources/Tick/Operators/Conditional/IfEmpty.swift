extension ObservableType {
    /// Emits `default` when the source completes without an element, then
    /// completes.
    public func ifEmpty(default: Element) -> Observable<Element> {
        lift { sink in
            var isEmpty = true
            return { event in
                switch event {
                case .next:
                    isEmpty = false
                    sink.forward(event)
                case .error: sink.forward(event)
                case .completed:
                    if isEmpty { sink.forwardNext(`default`) }
                    sink.forwardCompleted()
                }
            }
        }
    }

    /// Continues with `other` when the source completes without an element.
    /// The source subscription is disposed before `other` is subscribed.
    public func ifEmpty<Other: ObservableType>(switchTo other: Other) -> Observable<Element>
    where Other.Element == Element {
        let source = asObservable()
        let other = other.asObservable()
        return Observable { observer in
            let sink = IfEmptySink(downstream: observer, other: other)
            sink.run(source)
            return sink
        }
    }
}


/// `ifEmpty(switchTo:)`.
final class IfEmptySink<Element>: Sink<Element>, @unchecked Sendable {
    private let other: Observable<Element>
    private let current = SerialDisposable()
    /// Written by the source's events only (serialized).
    private var isEmpty = true

    init(downstream: AnyObserver<Element>, other: Observable<Element>) {
        self.other = other
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Element>) {
        let first = SingleAssignmentDisposable()
        current.disposable = first
        first.setDisposable(source.subscribe(AnyObserver { [self] event in
            switch event {
            case .next:
                isEmpty = false
                forward(event)
            case .error: forward(event)
            case .completed:
                guard isEmpty, !isDisposed else {
                    forward(event)
                    return
                }
                first.dispose()
                let second = SingleAssignmentDisposable()
                current.disposable = second
                second.setDisposable(other.subscribe(AnyObserver(eventHandler: forward)))
            }
        }))
    }

    override func disposeResources() { current.dispose() }
}
