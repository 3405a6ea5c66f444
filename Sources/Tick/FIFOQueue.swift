/// A first-in first-out queue with amortized O(1) append and removeFirst.
struct FIFOQueue<Element> {
    private var storage: ContiguousArray<Element?> = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }
    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) { storage.append(element) }

    @discardableResult
    mutating func removeFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
