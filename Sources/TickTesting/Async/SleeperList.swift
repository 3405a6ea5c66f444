/// The virtual sleeps a driver has in progress: a doubly linked list through
/// the sleepers themselves (`Sleeper.next`/`previous`/`isListed`), so that a
/// stall can end them all and the stuck-test report can say what is pending.
///
/// Invariants: the owner mutates it only under its lock; a sleeper is listed
/// at most once (`isListed`); the list holds each listed sleeper strongly
/// through `head`/`next`, and `previous` is unowned (the next-chain keeps it).
struct SleeperList {
    private var head: Sleeper?
    /// How many sleepers are listed.
    private(set) var count = 0

    /// Lists `sleeper` (not listed yet).
    mutating func insert(_ sleeper: Sleeper) {
        sleeper.next = head
        head?.previous = sleeper
        head = sleeper
        sleeper.isListed = true
        count += 1
    }

    /// Unlists `sleeper` if it is listed; returns its old successor, to be
    /// released by the caller outside the lock.
    mutating func remove(_ sleeper: Sleeper) -> Sleeper? {
        guard sleeper.isListed else { return nil }
        sleeper.isListed = false
        count -= 1
        if let previous = sleeper.previous { previous.next = sleeper.next } else { head = sleeper.next }
        sleeper.next?.previous = sleeper.previous
        let next = sleeper.next
        sleeper.next = nil
        sleeper.previous = nil
        return next
    }

    /// Unlists every sleeper, one by one (never a chain of releases as deep
    /// as the list), and returns them.
    mutating func removeAll() -> [Sleeper] {
        var taken: [Sleeper] = []
        while let sleeper = head {
            head = sleeper.next
            sleeper.next = nil
            sleeper.previous = nil
            sleeper.isListed = false
            taken.append(sleeper)
        }
        count = 0
        return taken
    }

    /// `transform` of every listed sleeper, newest first.
    func map<T>(_ transform: (Sleeper) -> T) -> [T] {
        var result: [T] = []
        var sleeper = head
        while let current = sleeper {
            result.append(transform(current))
            sleeper = current.next
        }
        return result
    }
}
