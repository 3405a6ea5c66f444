// Shrinking works on the choices of a failing run alone (see Choices.swift),
// so it needs to know nothing about what the generators made of them.
//
// A candidate replaces the best failing sequence only when it also fails and
// the choices its run actually drew are smaller in shortlex order (shorter,
// or as long and smaller at the first difference). That order is well
// founded, so shrinking always ends; it is also bounded by a number of
// attempts. The moves, tried in rounds until a whole round finds nothing:
// 1. delete a chunk of 8, 4, 2, then 1 consecutive choices (an element of a
//    timeline is a few consecutive choices: its flag, time and value);
// 2. set a chunk of 8, 4, then 2 choices to zero;
// 3. lower each choice: to zero, else by binary search to the smallest
//    value that still fails (and always tries the value one below it).
// When a round ends without improvement, no single move of these kinds
// still fails: the result is a local minimum.

/// Shrinks a failing choice sequence, one candidate at a time, so that the
/// same logic serves synchronous and asynchronous property checks.
/// A class: the plan's stages hold it as one reference rather than a copy
/// of its fields (Docs/Performance.md, "Build time").
final class Shrinker {
    /// The smallest failing choices found so far.
    private(set) var best: [UInt64]
    /// Candidates tried so far.
    private(set) var attempts = 0
    /// The most candidates it tries.
    let budget: Int

    private enum Phase: Equatable {
        case delete(size: Int, at: Int)
        case zero(size: Int, at: Int)
        /// `low` is a value known not to fail (nil: zero not yet tried).
        case lower(at: Int, low: UInt64?)
        case done
    }

    private var phase: Phase = .delete(size: 8, at: 0)
    private var improvedInRound = false

    init(failing choices: [UInt64], budget: Int) {
        best = choices
        self.budget = max(0, budget)
    }

    /// Whether it stopped because the budget ran out (so the result may not
    /// be a local minimum).
    var stoppedAtBudget: Bool { phase != .done && attempts >= budget }

    /// The next candidate to run, or nil when shrinking is over.
    func next() -> [UInt64]? {
        while attempts < budget {
            switch phase {
            case .done:
                return nil
            case .delete(let size, let at):
                guard at + size <= best.count else {
                    phase = size > 1 ? .delete(size: size / 2, at: 0) : .zero(size: 8, at: 0)
                    continue
                }
                var candidate = best
                candidate.removeSubrange(at..<at + size)
                return candidate
            case .zero(let size, let at):
                guard at + size <= best.count else {
                    phase = size > 2 ? .zero(size: size / 2, at: 0) : .lower(at: 0, low: nil)
                    continue
                }
                if best[at..<at + size].allSatisfy({ $0 == 0 }) {
                    phase = .zero(size: size, at: at + 1)
                    continue
                }
                var candidate = best
                for index in at..<at + size { candidate[index] = 0 }
                return candidate
            case .lower(let at, let low):
                guard at < best.count else {
                    phase = improvedInRound ? .delete(size: 8, at: 0) : .done
                    improvedInRound = false
                    continue
                }
                let high = best[at]
                guard let low else {
                    if high == 0 {
                        phase = .lower(at: at + 1, low: nil)
                        continue
                    }
                    var candidate = best
                    candidate[at] = 0
                    return candidate
                }
                guard high > low + 1 else {
                    phase = .lower(at: at + 1, low: nil)
                    continue
                }
                var candidate = best
                // Biased low, so the last step always tries high - 1.
                candidate[at] = low + (high - low) / 2
                return candidate
            }
        }
        return nil
    }

    /// The outcome of the candidate `next()` returned: whether it failed,
    /// and the choices its run drew.
    func record(_ candidate: [UInt64], failed: Bool, drew drawn: [UInt64]) {
        attempts += 1
        let improved = failed && Shrinker.precedes(drawn, best)
        if improved {
            best = drawn
            improvedInRound = true
        }
        switch phase {
        case .delete(let size, let at):
            // After a deletion the next chunk has moved to `at`.
            if !improved { phase = .delete(size: size, at: at + 1) }
        case .zero(let size, let at):
            phase = .zero(size: size, at: at + 1)
        case .lower(let at, let low):
            let tried = at < candidate.count ? candidate[at] : 0
            if improved {
                phase = low == nil || tried == 0 ? .lower(at: at + 1, low: nil) : .lower(at: at, low: low)
            } else {
                phase = .lower(at: at, low: tried)
            }
        case .done:
            break
        }
    }

    /// Shortlex order: shorter first, then smaller at the first difference.
    static func precedes(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}
