import Dispatch

// The vocabulary of `AsyncDriver`: how a wait for quiescence ends, and a job
// it holds.

extension AsyncDriver {
    /// How `quiescence(budget:)` ended.
    enum Outcome: Equatable {
        /// Nothing left to run.
        case quiet
        /// More than `budget` jobs ran while waiting: something keeps itself
        /// runnable without ever waiting on the virtual clock.
        case budgetExceeded(Int)
        /// A job has not finished for the stall limit of real time; the
        /// driver gave up (see `abandon`).
        case stalled(Duration)
        /// The driver had already given up.
        case abandoned
    }

    /// What ended a hold (kept for the tests: `holdReleases`).
    enum HoldRelease: Equatable {
        /// The root awaited an async advance/run of this scheduler.
        case awaited
        /// The root suspended and was resumed (its job came to the driver).
        case resumed
        /// The root's job ended: it suspended on something else.
        case jobEnded
        /// The root runs in a job Tick did not start, so Tick cannot see it
        /// suspend: its first held job ended the hold, with a failure.
        case untracked
    }

    /// A job the driver holds: what it needs to run it, or to hand it on.
    struct Pending {
        let job: UnownedJob
        let toMain: Bool
        /// The runtime's executor for a global job (main-actor jobs go to
        /// the main queue; jobs that came through `DrivenTaskExecutor`, to a
        /// global dispatch queue).
        let original: JobRouting.Original?
        /// A job of `DriverEntrance` (a caller stepping into the driver): it
        /// runs isolated to that executor.
        var entrance: UnownedSerialExecutor? = nil

        /// The job's address (a task is its own job, so a root's job has
        /// the root's address).
        var address: UInt { JobRouting.address(of: job) }

        /// Hands the job to the runtime instead of running it here.
        func forward() {
            if let entrance {
                let job = job
                DispatchQueue.global().async { JobRouting.track(job) { $0.runSynchronously(on: entrance) } }
            } else if toMain {
                if let original { original(job) } else { RoutingMainExecutor.runOnMainQueue(job) }
            } else {
                JobRouting.runOnGlobalQueue(job)
            }
        }
    }
}
