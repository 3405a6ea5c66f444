// One-line bindings that drive an ActivityIndicatorButton from observables.
// Each subscribes with `subscribe(onNext:)` and returns the subscription; dispose
// it (or add it to a DisposeBag) to stop driving the button. Elements are applied
// on whatever thread the source emits on, at the button scheduler's `now`.

extension ObservableType where Element == Bool {
    /// Drives `button`'s progress bar from a loading flag: `true` → `.spinning`,
    /// `false` → `.inactive`. Other properties of the current state are kept.
    ///
    /// ```
    /// isLoading.bindSpinning(to: button).disposed(by: bag)
    /// ```
    public func bindSpinning(to button: ActivityIndicatorButton, animated: Bool = true) -> any Disposable {
        subscribe(onNext: { [weak button] loading in
            button?.update(animated: animated) { $0.progressBarStyle = loading ? .spinning : .inactive }
        })
    }
}

extension ObservableType where Element == ActivityIndicator.State {
    /// Drives `button` from an ``ActivityIndicator``: loading → `.spinning`,
    /// idle → `.inactive` (the message is not shown by the button).
    ///
    /// ```
    /// activityIndicator.bindSpinning(to: button).disposed(by: bag)
    /// ```
    public func bindSpinning(to button: ActivityIndicatorButton, animated: Bool = true) -> any Disposable {
        map(\.loading).distinctUntilChanged().bindSpinning(to: button, animated: animated)
    }
}

extension ObservableType where Element: BinaryFloatingPoint {
    /// Drives `button`'s progress bar from a progress fraction: each value `v`
    /// becomes `.percentage(Float(v))` (clamped to 0…1 when drawn). Other
    /// properties of the current state are kept.
    public func bindProgress(to button: ActivityIndicatorButton, animated: Bool = true) -> any Disposable {
        subscribe(onNext: { [weak button] value in
            button?.update(animated: animated) { $0.setProgress(Float(value)) }
        })
    }
}

extension ObservableType where Element == (any Error)? {
    /// Shows the saved state `errorStateName` while the source's latest value is an
    /// error, and restores the state that was showing before when it becomes `nil`.
    ///
    /// - A second error while the error state shows keeps the originally saved
    ///   state for restoring.
    /// - `nil` while no error shows does nothing.
    /// - If no state is saved under `errorStateName` when an error arrives, the
    ///   misuse is reported (``Misuse``) and the button is left as it is.
    public func bindError(
        to button: ActivityIndicatorButton, showing errorStateName: String, animated: Bool = true
    ) -> any Disposable {
        let restore = ErrorBindingMemory()
        return subscribe(onNext: { [weak button] error in
            guard let button else { return }
            if error != nil {
                guard let errorState = button[errorStateName] else {
                    Misuse.report(
                        "bindError(to:showing:): no state is saved under \"\(errorStateName)\"; the error is not shown.")
                    return
                }
                if restore.state == nil { restore.state = button.activityState }
                button.transition(to: errorState, animated: animated)
            } else if let previous = restore.state {
                restore.state = nil
                button.transition(to: previous, animated: animated)
            }
        })
    }
}

/// The state to restore after an error binding's error clears.
private final class ErrorBindingMemory: @unchecked Sendable {
    private let lock = Lock()
    private var saved: ActivityIndicatorButtonState?

    var state: ActivityIndicatorButtonState? {
        get { lock.withLock { saved } }
        set { lock.withLock { saved = newValue } }
    }
}
