extension ObservableType {
    /// Pairs each element with its index, from 0.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        lift { sink in
            var index = 0
            return { event in
                switch event {
                case .next(let element):
                    let current = index
                    index += 1
                    sink.forwardNext((index: current, element: element))
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
    }
}
