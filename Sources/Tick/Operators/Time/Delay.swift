extension ObservableType {
    /// Shifts every element, and the completion, later by `dueTime` on
    /// `scheduler`. Errors are **not** delayed: an error is forwarded at once and
    /// elements still waiting are dropped (RxSwift's rule).
    ///
    /// An element received at `t` is emitted at `t + dueTime`, one event per
    /// scheduled action as in RxSwift: events due at the same instant go out
    /// in consecutive actions, so on a `TestScheduler` with
    /// `simulateProcessingDelay` each one after the first comes one frame
    /// later (`just(1).delay(2s)` from 200: `next@202`, `completed@203`).
    /// However many elements are waiting, the operator keeps a single pending
    /// timer (for the oldest one) and a queue of its own.
    ///
    /// The source subscription is disposed as soon as the source terminates,
    /// not when the delayed completion goes out (as in RxSwift).
    @inlinable
    public func delay(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        let dueTime = checkedDelay(dueTime, "delay(_:scheduler:)")
        return Observable { observer in
            let sink = DelaySink(downstream: observer, dueTime: dueTime, scheduler: scheduler)
            sink.setUpstream(sink.sourceSubscription)
            sink.sourceSubscription.setDisposable(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline
final class DelaySink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline let dueTime: Duration
    @usableFromInline let scheduler: any Scheduler
    @usableFromInline let lock = Lock()
    // Guarded by `lock` (so runtime exclusivity checks are off):
    /// The elements waiting, each with the instant it is due. Elements, not
    /// events: an element of a trivial type is copied as plain words, where
    /// an `Event` (which may hold an error) goes through its value witnesses.
    @usableFromInline @exclusivity(unchecked) var queue = FIFOQueue<(due: SchedulerInstant, element: Element)>()
    /// When the source's completion is due, once it has completed. It is the
    /// last event, so it goes out once `queue` is empty.
    @usableFromInline @exclusivity(unchecked) var completionDue: SchedulerInstant?
    @usableFromInline @exclusivity(unchecked) var pendingError: (any Error)?
    @usableFromInline @exclusivity(unchecked) var timerScheduled = false
    @usableFromInline @exclusivity(unchecked) var delivering = false
    /// The timer's action, made once (not per timer). It holds the sink, a
    /// cycle that `disposeResources` breaks.
    @usableFromInline @exclusivity(unchecked) var deliverAction: (() -> Void)?
    /// The disposable of the latest timer (a `NopDisposable` before the first).
    @usableFromInline @exclusivity(unchecked) var timer: any Disposable = NopDisposable()
    /// Counts the timers scheduled, so that a timer's disposable that comes
    /// back from `schedule` after a later timer was scheduled (its own action
    /// already ran, on another thread) does not replace the later one's.
    @usableFromInline @exclusivity(unchecked) var timerGeneration: UInt64 = 0
    /// Set by `disposeResources`: a timer's disposable stored after that is
    /// disposed at once.
    @usableFromInline @exclusivity(unchecked) var timersDisposed = false
    /// The source subscription, disposed when the source completes.
    @usableFromInline let sourceSubscription = SingleAssignmentDisposable()

    @inlinable
    init(downstream: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
        deliverAction = { [self] in deliver() }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let due = scheduler.now + dueTime
            lock.lock()
            queue.append((due, element))
            scheduleIfIdleAndUnlock()
        case .completed:
            let due = scheduler.now + dueTime
            lock.lock()
            completionDue = due
            scheduleIfIdleAndUnlock()
            sourceSubscription.dispose()
        case .error(let error):
            lock.lock()
            queue.removeAll()
            completionDue = nil
            let deliverNow = !delivering
            if !deliverNow { pendingError = error }
            lock.unlock()
            if deliverNow { forwardError(error) }
        }
    }

    /// Arms the timer for the event just queued unless one is armed already
    /// or a delivery is running (it arms the next one when it ends); unlocks.
    @inlinable
    func scheduleIfIdleAndUnlock() {
        let armed = armTimer(if: !timerScheduled && !delivering)
        lock.unlock()
        if let armed { storeTimer(scheduler.schedule(after: dueTime, armed.action), generation: armed.generation) }
    }

    /// Under `lock`: when `wanted` (and the sink still has its action), marks
    /// a timer as armed and gives its action and generation, for the caller
    /// to schedule once it has unlocked.
    @inlinable
    func armTimer(if wanted: Bool) -> (action: () -> Void, generation: UInt64)? {
        guard wanted, let action = deliverAction else { return nil }
        timerScheduled = true
        timerGeneration &+= 1
        return (action, timerGeneration)
    }

    /// Keeps the disposable of the timer of `generation`, unless a later timer
    /// was scheduled meanwhile (then this one already ran and is dropped) or
    /// the sink's resources were released (then it is disposed).
    ///
    /// A new timer is only ever scheduled once the previous one's action has
    /// started (`timerScheduled` is cleared by `deliver`), so the disposable it
    /// replaces belongs to a timer that already ran: it is dropped without
    /// disposing it, which would do nothing but cost a call into the scheduler.
    @inlinable
    func storeTimer(_ disposable: consuming any Disposable, generation: UInt64) {
        lock.lock()
        if timersDisposed {
            lock.unlock()
            disposable.dispose()
            return
        }
        guard generation == timerGeneration else {
            lock.unlock()
            return
        }
        let replaced = exchange(&timer, with: disposable)
        lock.unlock()
        // The replaced disposable is released here, outside the lock.
        _ = consume replaced
    }

    /// Delivers the oldest waiting event if it is due, then re-arms the timer
    /// for the next one still waiting: one event per scheduled action, as in
    /// RxSwift, so that events due at the same instant go out in separate
    /// actions (on a `TestScheduler` with `simulateProcessingDelay`, one
    /// frame apart). Only one delivery runs at a time.
    @inlinable
    func deliver() {
        lock.lock()
        timerScheduled = false
        delivering = true
        if let error = pendingError {
            pendingError = nil
            lock.unlock()
            forwardError(error)
            return
        }
        if let due = queue.first({ $0.due }) {
            if due <= scheduler.now {
                let head = queue.removeFirst().unsafelyUnwrapped
                lock.unlock()
                forwardNext(head.element)
                lock.lock()
                if let error = pendingError {
                    pendingError = nil
                    lock.unlock()
                    forwardError(error)
                    return
                }
            }
        } else if let due = completionDue, due <= scheduler.now {
            // The last event: nothing is delivered or armed after it.
            completionDue = nil
            lock.unlock()
            forward(.completed)
            return
        }
        delivering = false
        let next = queue.first { $0.due } ?? completionDue
        let armed = armTimer(if: next != nil)
        lock.unlock()
        // `schedule(at:)`: on a scheduler that keeps its work by due instant
        // (the TestScheduler) that reads no clock; on the others it is
        // `schedule(after: next - now)`, as before.
        if let next, let armed, !isDisposed {
            storeTimer(scheduler.schedule(at: next, armed.action), generation: armed.generation)
        }
    }

    @usableFromInline
    override func disposeResources() {
        var timer: any Disposable = NopDisposable()
        lock.lock()
        timersDisposed = true
        swap(&self.timer, &timer)
        deliverAction = nil
        lock.unlock()
        timer.dispose()
    }
}
