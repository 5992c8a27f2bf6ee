import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Concurrency audit: interleavings the compiler cannot see (a known issue while the library has the bug).
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyAuditTests {
    /// `StatefulEndpoint.swift` `load()`: a load replaced by `load()` while its response is being saved is not shown,
    /// but its save goes on, unordered with the newer load's save. When the older save ends last, the store keeps the
    /// older response: the next instance (the next launch) offers `"v1"` although `"v2"` was the last answer seen.
    @MainActor @Test func aReplacedLoadsSlowSaveDoesNotOverwriteTheNewerStoredResponse() async throws {
        let store = HoldingStore(keeps: true)
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
