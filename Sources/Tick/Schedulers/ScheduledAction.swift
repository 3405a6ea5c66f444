import Synchronization

/// One unit of scheduled work for the real schedulers: runs at most once,
/// never after it was disposed, and is counted as a live resource while pending.
final class ScheduledAction: Cancelable, @unchecked Sendable {
    private let done = Atomic<Bool>(false)
    /// Touched only by the caller that flipped `done`.
    @exclusivity(unchecked) private var action: (() -> Void)?
    private let counter = ResourceCounter()

    init(_ action: @escaping () -> Void) {
        self.action = action
        counter.increment()
    }

    var isDisposed: Bool { done.load(ordering: .acquiring) }

    /// Runs the action unless it was disposed (or already ran).
    func run() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = self.action
        self.action = nil
        counter.decrement()
        action?()
    }

    func dispose() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        action = nil
        counter.decrement()
    }
}
