import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Concurrency audit: interleavings the compiler cannot see.
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyAuditTests {
    /// `StatefulEndpoint.swift` `load()`: a load replaced by `load()` while its response is being saved is not shown,
    /// but its save goes on, unordered with the newer load's save. When the older save ends last, the store kept the
    /// older response: the next instance (the next launch) offered `"v1"` although `"v2"` was the last answer seen.
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
        // The replaced load's save, ending last, saves the newer answer again.
        #expect(store.keptBody == "v2")
        #expect(offered == .success("v2"))
        #expect(store.saveCount == 3)  // "v1", "v2", and "v2" again after "v1"

        // A save that ends before the newer one begins is not repeated.
        nextLaunch.load()
        await nextLaunch.task?.value
        #expect(store.saveCount == 4)
        #expect(store.keptBody == "v1")  // a new transport numbers its answers from 1 again
    }
}
