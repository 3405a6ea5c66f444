/// An output waiting in a ``SerializingSink``'s outbox: a ready event, or an
/// element still to be computed by user code (a result selector), which runs
/// outside the lock but in outbox order.
enum Outgoing<Output> {
    case event(Event<Output>)
    case compute(() throws -> Output)
    /// A side effect that must happen in order with the outputs (for example
    /// an event sent to one of `window`'s inner subjects).
    case perform(() -> Void)
}

/// A sink for operators whose inputs can arrive concurrently (several sources,
/// or a source and a timer): state changes happen under ``lock`` and queue
/// outputs in an outbox; ``drain()`` delivers them one at a time, outside the
/// lock, from whichever thread got there first.
///
/// This serializes delivery without ever calling downstream (user code) while
/// holding the lock. Re-entrant inputs (a downstream observer that feeds a
/// source of this very operator) are queued and delivered after the current
/// output returns, never nested inside it.
class SerializingSink<Output>: Sink<Output>, @unchecked Sendable {
    final let lock = Lock()
    private final var outbox = FIFOQueue<Outgoing<Output>>()
    private final var draining = false

    /// Queues `event`. Call with ``lock`` held, then call ``drain()`` after releasing it.
    final func enqueueLocked(_ event: Event<Output>) {
        outbox.append(.event(event))
    }

    /// Queues an element computed by `make` when it is delivered. Call with
    /// ``lock`` held.
    final func enqueueLocked(computing make: @escaping () throws -> Output) {
        outbox.append(.compute(make))
    }

    /// Queues a side effect to run, outside the lock, in order with the
    /// outputs. Call with ``lock`` held.
    final func enqueueLocked(perform effect: @escaping () -> Void) {
        outbox.append(.perform(effect))
    }

    /// Runs `body` under the lock, then drains.
    final func locked(_ body: () -> Void) {
        lock.lock()
        body()
        lock.unlock()
        drain()
    }

    /// Delivers queued outputs unless another call is already delivering them.
    final func drain() {
        lock.lock()
        if draining {
            lock.unlock()
            return
        }
        draining = true
        while let next = outbox.removeFirst() {
            if isDisposed {
                outbox.removeAll()
                break
            }
            lock.unlock()
            switch next {
            case .event(let event): forward(event)
            case .compute(let make):
                do { forwardNext(try make()) } catch { forwardError(error) }
            case .perform(let effect): effect()
            }
            lock.lock()
        }
        draining = false
        lock.unlock()
    }
}
