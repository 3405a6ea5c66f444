/// Why ``ActivityIndicatorButton/saveStates(_:)`` refused a list of states.
public enum ActivityIndicatorButtonError: Error, Equatable, CustomStringConvertible {
    /// The state at `index` has no name, so it could never be looked up. Nothing was saved.
    case unnamedState(index: Int)

    public var description: String {
        switch self {
        case .unnamedState(let index):
            return "ActivityIndicatorButton.saveStates: the state at index \(index) has no name; "
                + "every saved state needs one. No state was saved."
        }
    }
}

extension ActivityIndicatorButton {
    /// How many states are saved.
    public var savedStatesCount: Int { withSavedStates { $0.count } }

    /// The state saved under `name`; assigning stores a state under that key
    /// (whatever the state's own `name`), assigning `nil` removes it.
    ///
    /// States are values: changing a saved state (`button["Progress"]?.setProgress(0.35)`)
    /// does not change the current state, and vice versa.
    public subscript(name: String) -> ActivityIndicatorButtonState? {
        get { withSavedStates { $0[name] } }
        set { withSavedStates { $0[name] = newValue } }
    }

    /// Saves each state under its `name`, replacing a saved state of the same name and
    /// keeping all others.
    ///
    /// - Throws: ``ActivityIndicatorButtonError/unnamedState(index:)`` when any state has
    ///   no name; then nothing is saved (the list is checked before anything is stored).
    public func saveStates(_ states: [ActivityIndicatorButtonState]) throws {
        var named: [(String, ActivityIndicatorButtonState)] = []
        for (index, state) in states.enumerated() {
            guard let name = state.name else { throw ActivityIndicatorButtonError.unnamedState(index: index) }
            named.append((name, state))
        }
        withSavedStates { saved in
            for (name, state) in named { saved[name] = state }
        }
    }

    /// Transitions to the state saved under `name`.
    ///
    /// - Returns: `true` when such a state exists; `false` (and nothing changes) otherwise.
    @discardableResult
    public func transitionSavedState(_ name: String, animated: Bool = true) -> Bool {
        guard let state = self[name] else { return false }
        transition(to: state, animated: animated)
        return true
    }
}
