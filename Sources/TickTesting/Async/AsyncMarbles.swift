import Tick

/// Marble expectations on async sequences: the `AsyncSequence` version of
/// `expect(_:subscription:)`.
extension TestScheduler {
    /// Iterates `sequence` as `subscription` says and records what it
    /// produces, with virtual times, for a later
    /// ``MarbleExpectation/toBe(_:values:error:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// scheduler.expect(stream).toBe("--a--b--|")
    /// await scheduler.run()
    /// ```
    ///
    /// - At the subscription diagram's `^` (time 0 without one) a task starts
    ///   iterating the sequence; each element is recorded as `next` at the
    ///   virtual time it arrives, the end as `|`, a thrown error as `#`.
    /// - At its `!` the task is cancelled; nothing is recorded after that.
    /// - Checked by the async ``run(fileID:filePath:line:column:isolation:)``
    ///   (or `flush()`), which drives the task; the synchronous `run()` cannot
    ///   wait for it and reports a failure instead of a wrong diagram.
    /// - Diagrams, diffs and failure locations are those of the Observable version.
    public func expect<Sequence: AsyncSequence & Sendable>(
        _ sequence: Sequence, subscription: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> MarbleExpectation<Sequence.Element> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        asyncDriver.registerCurrentTask()
        var plan = Subscription(0)
        if let subscription {
            do {
                plan = try Marbles.parseSubscription(subscription, frame: frame)
            } catch {
                TestFailureReporter.fail(error.description, at: site)
            }
        }
        let recorder = createObserver(Sequence.Element.self)
        let iteration = AsyncIteration<Sequence>(sequence: sequence, recorder: recorder)
        let resources = CompositeDisposable()
        _ = resources.insert(scheduleAt(plan.subscribe) { iteration.start() })
        if let end = plan.unsubscribe {
            _ = resources.insert(scheduleAt(end) { iteration.stop() })
        }
        let driver = asyncDriver
        marbleExpectations.add(site: site, check: {
            if !driver.checkingAsync {
                TestFailureReporter.fail(
                    "expect(asyncSequence) is checked by the synchronous run()/flush(), which cannot wait for the task that iterates the sequence. Call `await scheduler.run()` instead.",
                    at: site)
            }
        })
        marbleExpectations.add(cleanup: {
            iteration.stop()
            resources.dispose()
        })
        return MarbleExpectation(scheduler: self, recorder: recorder, plan: plan)
    }
}

/// The task that iterates an expected async sequence and records its events.
final class AsyncIteration<Sequence: AsyncSequence & Sendable>: @unchecked Sendable {
    // @unchecked: `task` and `stopped` are guarded by `lock`; the recorder is
    // thread-safe.
    private let lock = Lock()
    private let sequence: Sequence
    private let recorder: TestableObserver<Sequence.Element>
    private var task: Task<Void, Never>?
    private var stopped = false

    init(sequence: Sequence, recorder: TestableObserver<Sequence.Element>) {
        self.sequence = sequence
        self.recorder = recorder
    }

    func start() {
        let task = Task { await iterate() }
        let keep = lock.withLock { () -> Bool in
            guard !stopped else { return false }
            self.task = task
            return true
        }
        if !keep { task.cancel() }
    }

    /// Records `event` unless the iteration was stopped.
    private func record(_ event: Event<Sequence.Element>) {
        lock.withLock {
            guard !stopped else { return }
            recorder.on(event)
        }
    }

    private func iterate() async {
        do {
            for try await element in sequence {
                record(.next(element))
            }
            record(.completed)
        } catch {
            record(.error(error))
        }
    }

    func stop() {
        let task = lock.withLock { () -> Task<Void, Never>? in
            stopped = true
            defer { self.task = nil }
            return self.task
        }
        task?.cancel()
    }
}
