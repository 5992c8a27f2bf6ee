import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Concurrency audit: interleavings the compiler cannot see (a known issue while the library has the bug).
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyAuditTests {
    /// A store that keeps the last response saved (the last write wins, as with a file) and whose first save waits
    /// until ``release()`` before it writes: a slow disk.
    final class SlowFirstWriteStore: ResponseStore {
        private struct State {
            var saves = 0
            var released = false
            var held: CheckedContinuation<Void, Never>?
            var kept: (body: Data, response: HTTPURLResponse)?
        }

        private let state = Locked(State())
        private let started: AsyncStream<Void>.Continuation
        /// Yields when the first save starts.
        let saving: AsyncStream<Void>

        init() { (saving, started) = AsyncStream.makeStream() }

        /// The body written last.
        var keptBody: String? { state.withLock { $0.kept.map { String(decoding: $0.body, as: UTF8.self) } } }

        /// Lets the first save write.
        func release() {
            state.withLock { state in
                state.released = true
                defer { state.held = nil }
                return state.held
            }?.resume()
        }

        func restore<Value>(
            for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
        ) async -> Value? {
            guard let kept = state.withLock({ $0.kept }) else { return nil }
            return try? decode(kept.body, kept.response)
        }

        func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async {
            let isFirst = state.withLock { state in
                state.saves += 1
                return state.saves == 1
            }
            if isFirst {
                started.yield()
                await withCheckedContinuation { continuation in
                    let released = state.withLock { state in
                        if !state.released { state.held = continuation }
                        return state.released
                    }
                    if released { continuation.resume() }
                }
            }
            state.withLock { $0.kept = (body, response) }
        }
    }

    /// `StatefulEndpoint.swift` `load()`: a load replaced by `load()` while its response is being saved is not shown,
    /// but its save goes on, unordered with the newer load's save. When the older save ends last, the store keeps the
    /// older response: the next instance (the next launch) offers `"v1"` although `"v2"` was the last answer seen.
    @MainActor @Test func aReplacedLoadsSlowSaveDoesNotOverwriteTheNewerStoredResponse() async throws {
        let store = SlowFirstWriteStore()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: NumberingTransport(), store: store)
        endpoint.load()
        let first = try #require(endpoint.task)
        for await _ in store.saving { break }  // "v1" arrived and is being saved
        endpoint.load()  // replaces it: "v2" is fetched, saved and shown
        let second = try #require(endpoint.task)
        await second.value
        #expect(store.keptBody == "v2")
        store.release()  // the replaced load's save of "v1" ends now
        await first.value
        #expect(endpoint.value == "v2")

        let nextLaunch = StatefulEndpoint(endpoint: textEndpoint(), transport: NumberingTransport(), store: store)
        let offered = await waitUntil(nextLaunch) { $0.isSuccess }
        // Saves in the order they began would fix it, but a save that never ends (a custom store) would then hold
        // every later one: left as it is.
        withKnownIssue("the replaced load's save ends last and overwrites the newer response") {
            #expect(store.keptBody == "v2")
            #expect(offered == .success("v2"))
        }
    }
}
