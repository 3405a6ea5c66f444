// Where every generated thing comes from: a sequence of choices. A run
// draws numbers one by one; while generating they come from a seeded
// SplitMix64 generator (`SeededGenerator`), and every drawn number is
// recorded. Replaying a recorded (or shrunk) sequence gives the same run;
// past its end every draw is 0. Generators are written so that smaller
// numbers make simpler things (fewer events, earlier times, shorter
// durations, simpler values, scheduling order), which is what lets the
// shrinker work on the numbers alone, whatever the generators are.

/// The source of a run's choices: random (recorded) or replayed.
final class Choices {
    private var random: SeededGenerator?
    private let replayed: [UInt64]
    /// Every number drawn so far, in order.
    private(set) var drawn: [UInt64] = []

    /// Fresh choices from a seed.
    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
        replayed = []
    }

    /// Exactly `choices` again, then zeros.
    init(replaying choices: [UInt64]) {
        random = nil
        replayed = choices
    }

    /// A number in `0...bound`. `random` draws it when generating (so the
    /// distribution need not be uniform); replayed numbers above `bound`
    /// are clamped to it.
    func draw(upTo bound: UInt64, random generate: ((inout SeededGenerator) -> UInt64)? = nil) -> UInt64 {
        let value: UInt64
        if drawn.count < replayed.count {
            value = min(replayed[drawn.count], bound)
        } else if random != nil {
            value = min(generate.map { $0(&random!) } ?? uniform(upTo: bound), bound)
        } else {
            value = 0
        }
        drawn.append(value)
        return value
    }

    /// `true` with probability `probability` when generating; shrinks to `false`.
    func flag(probability: Double) -> Bool {
        let p = min(1, max(0, probability))
        return draw(upTo: 1) { generator in
            Double(generator.next() >> 11) * 0x1p-53 < p ? 1 : 0
        } == 1
    }

    private func uniform(upTo bound: UInt64) -> UInt64 {
        bound == .max ? random!.next() : random!.next(upperBound: bound + 1)
    }
}

/// A property check's one-line replay text: the choices of one case.
enum ReplayText {
    static let prefix = "tick1:"

    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    static func encode(_ choices: [UInt64]) -> String {
        prefix + choices.map { String($0, radix: 36) }.joined(separator: ".")
    }

    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    static func decode(_ text: String) -> [UInt64]? {
        guard text.hasPrefix(prefix) else { return nil }
        let body = text.dropFirst(prefix.count)
        if body.isEmpty { return [] }
        var choices: [UInt64] = []
        for part in body.split(separator: ".", omittingEmptySubsequences: false) {
            guard let value = UInt64(part, radix: 36) else { return nil }
            choices.append(value)
        }
        return choices
    }
}
