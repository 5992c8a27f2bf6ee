import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct LockedTests {
    @Test func withLockReadsAndWritesTheValueAndReturnsTheBodysResult() {
        let locked = Locked([1, 2])
        let count = locked.withLock { values -> Int in
            values.append(3)
            return values.count
        }
        #expect(count == 3)
        #expect(locked.withLock { $0 } == [1, 2, 3])
    }

    @Test func withLockRethrowsAndKeepsWhatTheBodyChangedBeforeThrowing() {
        struct Stop: Error {}
        let locked = Locked(0)
        #expect(throws: Stop.self) {
            try locked.withLock { value in
                value = 7
                throw Stop()
            }
        }
        #expect(locked.withLock { $0 } == 7)
        // The lock was released when the body threw: taking it again does not deadlock.
        #expect(locked.withLock { $0 + 1 } == 8)
    }

    /// Read-modify-write from many threads at once loses no update, and no two bodies ever run at the same time.
    @Test func bodiesRunOneAtATime() async {
        let state = Locked((count: 0, inside: false, overlaps: 0))
        let tasks = 8
        let increments = 2_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<increments {
                        state.withLock { state in
                            if state.inside { state.overlaps += 1 }
                            state.inside = true
                            let read = state.count
                            for _ in 0..<10 where Int.random(in: 0..<4) == 0 { Thread.sleep(forTimeInterval: 0) }
                            state.count = read + 1
                            state.inside = false
                        }
                    }
                }
            }
        }
        let final = state.withLock { $0 }
        #expect(final.count == tasks * increments)
        #expect(final.overlaps == 0)
    }
}
