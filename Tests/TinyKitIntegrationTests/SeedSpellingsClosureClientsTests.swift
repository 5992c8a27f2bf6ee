// The spellings the closure-based clients text (seeds/002) names outside its code samples, as
// Docs/ComingFromClosureClients.md's "Other spellings the README names" gives them with TinyKit: one test per row
// that has a TinyKit spelling, so the table cannot rot. The samples themselves are SeedSamplesClosureClientsTests'.
import Foundation
import Testing
import TinyKit

@MainActor @Suite(.timeLimit(.minutes(1))) struct SeedSpellingsClosureClientsTests {
    struct Item: Codable, Sendable, Equatable, Identifiable {
        var id: Int
        var title: String
    }

    struct SomeClient {
        var fetchItems: (_ limit: Int) async throws -> [Item]
    }

    /// "If you need multiple variants (mock/stub), add `static func mock(...)`": unchanged; with TinyKit the live
    /// closures also run over a `MockTransport` when `live` takes the transport.
    @Test func mockAndLiveOverAMockTransport() async throws {
        let stub = SomeClient.mock(items: [Item(id: 1, title: "First")])
        #expect(try await stub.fetchItems(1) == [Item(id: 1, title: "First")])

        let transport = MockTransport()
        transport.register(.get, "/items", query: ["limit": "1"], .json(#"[{"id":2,"title":"Second"}]"#))
        let live = SomeClient.live(baseURL: URL(string: "https://example.com")!, transport: transport)

        #expect(try await live.fetchItems(1) == [Item(id: 2, title: "Second")])
        #expect(transport.requests.map { $0.url?.absoluteString } == ["https://example.com/items?limit=1"])
    }

    /// The store's `LoadState` with `failed(error.localizedDescription)` may stay; TinyKit's `RequestState` is the
    /// same four states and keeps the typed error.
    @Test func loadStateOrRequestState() async throws {
        let transport = MockTransport()
        transport.register(.get, "/items", query: ["limit": "20"], .json("{}", status: 503))
        let client = SomeClient.live(baseURL: URL(string: "https://example.com")!, transport: transport)

        var state: RequestState<[Item]> = .idle
        state = .loading
        state = await RequestState { try await client.fetchItems(20) }

        let error = try #require(state.error?.underlyingError as? HTTPTransportError)
        #expect(error.code == .unacceptableStatus(503))
        #expect(state.error?.message == error.localizedDescription)
    }
}

extension SeedSpellingsClosureClientsTests.SomeClient {
    typealias Item = SeedSpellingsClosureClientsTests.Item

    static func live(baseURL: URL, transport: any HTTPTransport = URLSession.shared) -> Self {
        Self(fetchItems: { limit in
            try await transport.load(
                Endpoint<[Item]>(json: .get, url: baseURL.appendingRelative("items"), query: ["limit": "\(limit)"]))
        })
    }

    static func mock(items: [Item]) -> Self {
        Self(fetchItems: { limit in Array(items.prefix(limit)) })
    }
}
