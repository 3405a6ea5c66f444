// Order exploration: work due at the same virtual instant from different
// sources runs in a generated order instead of scheduling order. The
// scheduler's queue calls in here only when a property check switched it on
// (`TestScheduler.State.orderExplorer`); otherwise it pays one branch.
//
// The rule ("different sources"). Every entry is tagged, when it is
// scheduled, with its source:
// - scheduled while one of the scheduler's actions runs (an operator's
//   timer, a delayed element, a sleep of async work that action woke): that
//   action;
// - scheduled by the property's generated inputs: that input (each input is
//   a source of its own);
// - scheduled by the test's own code between two runs of the scheduler: the
//   test.
// Entries of one source keep their scheduling order among themselves (a
// source's own events at one instant, such as `(ab|)`, are one synchronous
// burst in real time). Entries of different sources due at the same instant
// may run in any order: in real time, which of them comes first is a race.

/// Chooses the order of same-instant work for one run of a property check,
/// and remembers which orders differed from scheduling order (for the report).
///
/// Used only under the scheduler's lock (from `enqueue` and `takeNext`) and by
/// the run that owns it between runs of the scheduler, never concurrently:
/// that is what makes `@unchecked Sendable` safe.
final class OrderExplorer: @unchecked Sendable {
    /// Sources of explicit kinds (inputs, the test) have the top bit set;
    /// an action's source is the action's own sequence number.
    static let explicitSource: UInt64 = 1 << 63

    /// The source of every pending entry.
    private var sources = [UInt64: UInt64]()
    /// The source of work scheduled from outside the scheduler's actions.
    var outsideSource: UInt64 = OrderExplorer.explicitSource
    /// The action running now (the source of what it schedules).
    private var runningSource: UInt64 = OrderExplorer.explicitSource
    /// When each action ran (for naming action sources in the report).
    private var actionTimes = [UInt64: Int128]()
    /// Names of explicit sources.
    private var names: [UInt64: String] = [OrderExplorer.explicitSource: "the test"]
    private var nextExplicit: UInt64 = OrderExplorer.explicitSource + 1
    /// Picks one of `n` candidates (0 is scheduling order).
    private let choose: (Int) -> Int
    /// Writes an instant (attoseconds) as the scheduler's frame time.
    private let describeTime: (Int128) -> String

    /// One departure from scheduling order.
    struct Departure {
        /// The instant, as frame time.
        let time: String
        /// The source whose entry ran first.
        let ran: String
        /// The source whose entry scheduling order would have run first.
        let insteadOf: String
    }

    /// Every departure from scheduling order, in the order they happened.
    private(set) var departures: [Departure] = []

    init(choose: @escaping (Int) -> Int, describeTime: @escaping (Int128) -> String) {
        self.choose = choose
        self.describeTime = describeTime
    }

    /// A new explicit source named `name`.
    func newSource(named name: String) -> UInt64 {
        let source = nextExplicit
        nextExplicit += 1
        names[source] = name
        return source
    }

    func noteScheduled(_ sequence: UInt64, fromAction: Bool) {
        sources[sequence] = fromAction ? runningSource : outsideSource
    }

    func source(of sequence: UInt64) -> UInt64 {
        sources[sequence] ?? OrderExplorer.explicitSource
    }

    /// Picks which of the `candidates` (first entries of distinct sources,
    /// in scheduling order) runs now.
    func pick(among candidates: Int) -> Int {
        min(max(0, choose(candidates)), candidates - 1)
    }

    func noteDeparture(at due: Int128, ran: UInt64, insteadOf: UInt64) {
        departures.append(Departure(time: describeTime(due), ran: name(of: source(of: ran)), insteadOf: name(of: source(of: insteadOf))))
    }

    func willRun(_ sequence: UInt64, at due: Int128) {
        sources[sequence] = nil
        runningSource = sequence
        actionTimes[sequence] = due
    }

    private func name(of source: UInt64) -> String {
        if let name = names[source] { return name }
        if let time = actionTimes[source] { return "work scheduled by the action that ran at \(describeTime(time))" }
        return "work scheduled by an action"
    }
}

extension TestScheduler {
    /// Makes the same-instant order of this scheduler's work follow
    /// `explorer` (only before anything was scheduled).
    func exploreOrder(with explorer: OrderExplorer) {
        lock.withLock { state.orderExplorer = explorer }
    }

    /// Runs `body` with everything it schedules from outside the scheduler's
    /// actions tagged as `source`.
    func scheduling<R>(as source: UInt64, _ body: () throws -> R) rethrows -> R {
        guard let explorer = lock.withLock({ state.orderExplorer }) else { return try body() }
        let previous = lock.withLock { () -> UInt64 in
            defer { explorer.outsideSource = source }
            return explorer.outsideSource
        }
        defer { lock.withLock { explorer.outsideSource = previous } }
        return try body()
    }
}

extension TestScheduler.State {
    /// `takeNext` when exploring order: takes every live entry due at the
    /// first live entry's instant, lets the explorer pick one among the
    /// first entries of each source, and puts the rest back with their own
    /// sequence numbers (so they keep their order, and disposing them still
    /// cancels them).
    mutating func takeNextExploring(notAfter limit: Int128?, _ explorer: OrderExplorer) -> (() -> Void)? {
        var due: Int128?
        var group: [(sequence: UInt64, run: () -> Void)] = []
        while let first = queue.first() {
            if let due {
                guard first.due == due else { break }
            } else if let limit, first.due > limit {
                break
            }
            let run = queue.removeFirst(isPacked: first.isPacked)
            if isDone(first.sequence) {
                cancelledInHeap -= 1
                continue
            }
            due = first.due
            group.append((first.sequence, run))
        }
        guard let due, !group.isEmpty else { return nil }
        var chosen = 0
        if group.count > 1 {
            var seen = Set<UInt64>()
            var candidates: [Int] = []
            for (index, entry) in group.enumerated() where seen.insert(explorer.source(of: entry.sequence)).inserted {
                candidates.append(index)
            }
            if candidates.count > 1 {
                let pick = explorer.pick(among: candidates.count)
                chosen = candidates[pick]
                if pick > 0 {
                    explorer.noteDeparture(at: due, ran: group[chosen].sequence, insteadOf: group[0].sequence)
                }
            }
        }
        for (index, entry) in group.enumerated() where index != chosen {
            queue.push(due: due, sequence: entry.sequence, entry.run)
        }
        let entry = group[chosen]
        markDone(entry.sequence)
        current = Duration(totalAttoseconds: due)
        explorer.willRun(entry.sequence, at: due)
        return entry.run
    }
}
