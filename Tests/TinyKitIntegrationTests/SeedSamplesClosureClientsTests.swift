// Every code sample of the closure-based lightweight clients reference (seeds/002), as
// Docs/ComingFromClosureClients.md edits it: copied verbatim, with each edit marked
// `// Coming from closure clients: <reason>`. Lines marked `// test:` are the test's own. SwiftUI's names are the
// test's stand-ins (SeedSamplesStandIns.swift). The live client runs against the in-process test server.
import Foundation
import Observation  // Coming from closure clients: test only, SwiftUI (which re-exports it) is not on Linux
import Testing
import TinyKit
import TinyKitTestServer

// MARK: - The samples

// "Minimal shape"
struct SomeClient {
    var fetchItems: (_ limit: Int) async throws -> [Item]
    var search: (_ query: String, _ limit: Int) async throws -> [Item]
}

extension SomeClient {
    static func live(baseURL: URL = URL(string: "https://example.com")!) -> SomeClient {
        let session = URLSession.shared
        return SomeClient(
            fetchItems: { limit in
                // build URL, call session, decode
                // Coming from closure clients: the sample leaves the body out; with TinyKit it is one endpoint.
                try await session.load(
                    Endpoint<[Item]>(json: .get, url: baseURL.appendingRelative("items"), query: ["limit": "\(limit)"]))
            },
            search: { query, limit in
                // build URL, call session, decode
                // Coming from closure clients: the sample leaves the body out; with TinyKit it is one endpoint.
                try await session.load(
                    Endpoint<[Item]>(
                        json: .get, url: baseURL.appendingRelative("search"),
                        query: ["q": query, "limit": "\(limit)"]))
            }
        )
    }
}

// "Usage pattern"
@MainActor
@Observable final class ItemsStore {
    // swift-format-ignore: OneCasePerLine
    enum LoadState { case idle, loading, loaded, failed(String) }

    var items: [Item] = []
    var state: LoadState = .idle
    private let client: SomeClient

    init(client: SomeClient) {
        self.client = client
    }

    func load(limit: Int = 20) async {
        state = .loading
        do {
            items = try await client.fetchItems(limit)
            state = .loaded
        } catch {
            state = .failed(error.localizedDescription)
        }
    }
}

struct ContentView: View {
    @Environment(ItemsStore.self) private var store

    var body: some View {
        List(store.items) { item in
            Text(item.title)
        }
        .task { await store.load() }
    }
}

// Coming from closure clients: test only, no `@main` (a test bundle has its own entry point).
struct MyApp: App {
    @State private var store = ItemsStore(client: .live())

    var body: some Scene {
        WindowGroup {
            ContentView()
                .environment(store)
        }
    }
}

// MARK: - What the samples leave to the reader

struct Item: Codable, Identifiable {
    var id: Int
    var title: String
}

// MARK: - Tests

@Suite(.timeLimit(.minutes(1))) struct SeedSamplesClosureClientsTests {
    static let items = #"[{"id":1,"title":"First"},{"id":2,"title":"Second"}]"#

    @Test func theLiveClientBuildsTheURLCallsTheSessionAndDecodes() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /api/items", response: .json(200, Self.items))
        await server.route("GET /api/search", response: .json(200, #"[{"id":2,"title":"Second"}]"#))
        let client = SomeClient.live(baseURL: server.url("/api"))

        #expect(try await client.fetchItems(2).map(\.title) == ["First", "Second"])
        #expect(try await client.search("sec ond", 5).map(\.id) == [2])
        let queries = server.requests.map { "\($0.path)?\($0.rawQuery)" }
        #expect(queries == ["/api/items?limit=2", "/api/search?limit=5&q=sec%20ond"])
    }

    @Test func theLiveClientThrowsTypedErrors() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /items", response: .json(500, #"{"error":"boom"}"#))
        await server.route("GET /search", response: .json(200, #"[{"id":"not a number"}]"#))
        let client = SomeClient.live(baseURL: server.baseURL)

        let status = try await #require(throws: HTTPTransportError.self) { try await client.fetchItems(1) }
        #expect(status.code == .unacceptableStatus(500))
        let decoding = try await #require(throws: EndpointError.self) { try await client.search("x", 1) }
        guard case .decodingFailed = decoding else {
            Issue.record("expected a decoding failure, got \(decoding)")
            return
        }
    }

    @MainActor @Test func theStoreAndViewLoadOnAppear() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /items", response: .json(200, Self.items))
        let store = ItemsStore(client: .live(baseURL: server.baseURL))
        let screen = render(ContentView().environment(store))
        #expect(screen.texts.isEmpty)

        await screen.runTasks()

        guard case .loaded = store.state else {
            Issue.record("expected loaded, got \(store.state)")
            return
        }
        #expect(render(ContentView().environment(store)).texts == ["First", "Second"])
        #expect(server.requests.first?.queryValue("limit") == "20")
    }

    @MainActor @Test func aFailedLoadKeepsTheMessage() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /items", response: .json(503, #"{"error":"maintenance"}"#))
        let store = ItemsStore(client: .live(baseURL: server.baseURL))

        await store.load()

        guard case .failed(let message) = store.state else {
            Issue.record("expected failed, got \(store.state)")
            return
        }
        #expect(message.contains("503"))
    }

    @MainActor @Test func theAppPutsTheStoreInTheEnvironment() {
        let app = MyApp()
        let window = app.body.content
        #expect(window.texts.isEmpty)  // no items before the task runs
        #expect(window.count == 1)  // the list's `.task`
    }
}
