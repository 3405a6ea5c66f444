#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(TickInternals) import Tick

// The pool of slabs the radix heaps (TestScheduler+RadixHeap.swift) carve
// their chunks from, shared by every TestScheduler of the process.

extension TestScheduler {
    /// The radix heaps' slabs, shared by every TestScheduler of the process:
    /// a heap that goes away gives its slabs back, and the next one takes
    /// them before mapping new ones. A test process makes many schedulers,
    /// and a slab already touched costs no page faults (a fresh mapping
    /// faults in every page it uses). The shared pool keeps at most 64 slabs
    /// (16 MiB); the rest are unmapped.
    final class SlabPool: @unchecked Sendable {
        // @unchecked: `slabs` is only touched under `lock`; a slab in it
        // belongs to no heap.
        static let shared = SlabPool(limit: 64)

        let limit: Int
        private let lock = Lock()
        private var slabs: [UnsafeMutableRawPointer] = []

        init(limit: Int) { self.limit = limit }

        deinit {
            for slab in slabs { munmap(slab, RadixHeap.slabBytes) }
        }

        /// How many slabs wait for a heap.
        var keptCount: Int { lock.withLock { slabs.count } }

        /// A slab of `RadixHeap.slabBytes`: a kept one, or a new mapping
        /// (whole pages, touched only as chunks are carved; from malloc, a
        /// header would cost a page a slab).
        func take() -> UnsafeMutableRawPointer {
            if let kept = lock.withLock({ slabs.popLast() }) { return kept }
            let slab = mmap(nil, RadixHeap.slabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            // (MAP_FAILED, spelled out: not every platform's overlay has it.)
            guard let slab, slab != UnsafeMutableRawPointer(bitPattern: -1) else {
                // Out of memory: nothing sensible is left to do.
                fatalError("TestScheduler: out of memory for its queue")
            }
            return slab
        }

        /// Keeps `slab` for the next heap, or unmaps it past `limit`.
        func give(_ slab: UnsafeMutableRawPointer) {
            let kept = lock.withLock { () -> Bool in
                guard slabs.count < limit else { return false }
                slabs.append(slab)
                return true
            }
            if !kept { munmap(slab, RadixHeap.slabBytes) }
        }
    }
}
