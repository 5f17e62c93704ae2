import RelaySystem
import Synchronization
import Testing

/// `LockedCallback`: set from one thread, called from others, and as cheap at the last call as
/// at the first.
@Suite(.timeLimit(.minutes(1)))
struct LockedCallbackTests {
    @Test func setReplaceAndRemove() {
        let callback = LockedCallback<Int>()
        #expect(callback.current == nil)
        let seen = Mutex<[Int]>([])
        callback.set { value in seen.withLock { $0.append(value) } }
        callback.current?(1)
        callback.set { value in seen.withLock { $0.append(value * 10) } }
        callback.current?(2)
        callback.set(nil)
        #expect(callback.current == nil)
        #expect(seen.withLock { $0 } == [1, 20])
    }

    /// A closure kept straight in a `Mutex` gained a thunk at every read: 20,000 reads took
    /// seconds, and a few hundred thousand overflowed the stack. Here a million reads and
    /// calls finish within the time limit, and every call arrives.
    @Test func manyReadsStayCheap() {
        let callback = LockedCallback<Int>()
        let total = Atomic<Int>(0)
        callback.set { value in total.add(value, ordering: .relaxed) }
        for _ in 0..<1_000_000 { callback.current?(1) }
        #expect(total.load(ordering: .relaxed) == 1_000_000)
    }
}
