import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks
import TinyRequestState
import TinyStatefulEndpoint

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A screen of the quick start.
@MainActor private final class Screen {
    var rendered: [RequestState<[Todo]>] = []
    func render(_ state: RequestState<[Todo]>) { rendered.append(state) }
}

/// The README's snippets, compiled and run.
@Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
    @MainActor @Test func freshRevalidatedAndKeptAcrossLaunches() async throws {
        let transport = MockTransport()
        transport.register(.get, "/todos", .json(#"[{"id": 1, "title": "Keep it"}]"#, headers: ["ETag": "\"1\""]))
        let api = TodosAPI(transport: transport)
        let caches = FileManager.default.temporaryDirectory.appendingPathComponent("todos-cache")
        defer { try? FileManager.default.removeItem(at: caches) }
        let todos = StatefulEndpoint(
            endpoint: api.get(), transport: transport,
            store: FileResponseStore(directory: caches),  // the last good response survives restarts
            cancelsUnobservedLoadAfter: .seconds(2))  // a load no screen waits for any more stops
        todos.loadIfNeeded()

        for await state in todos.states where state.isSuccess { break }
        #expect(todos.value?.first?.title == "Keep it")
    }

    @Test func onAServer() async throws {
        let transport = MockTransport()
        transport.register(.get, "/rates", .json(#"{"eur": 0.92}"#))
        let upstream = try RatesAPI()
        // transport: AsyncHTTPClientTransport.shared on a server, a MockTransport in tests
        let rates = EndpointCache(endpoint: upstream.rates(), transport: transport, maximumAge: .seconds(30))
        let current = try await rates.value()  // in each request handler
        #expect(current == ["eur": 0.92])
    }

    @MainActor @Test func quickStart() async {
        let transport = MockTransport()
        transport.register(.get, "/todos", .json(#"[{"id": 1, "title": "Read the README"}]"#))
        let api = TodosAPI(transport: transport)
        let screen = Screen()

        let todos = StatefulEndpoint(endpoint: api.get(), transport: transport)

        // Screens observe it: the current state at once, then every change, on the main actor.
        // The first observer starts the load; the owner is held weakly and handed to the closure.
        todos.observe(owner: screen) { screen, state in
            screen.render(state)
        }

        // Async code iterates its states.
        for await state in todos.states {
            if case .success(let items) = state {
                print("\(items.count) todos")
                break
            }
        }

        // The same instance for the same request, wherever the app asks for it.
        let registry = EndpointRegistry(transport: transport)
        let shared = registry.statefulEndpoint(for: api.get())
        #expect(registry.statefulEndpoint(for: api.get()) === shared)

        #expect(screen.rendered == [.idle, .loading, .success([Todo(id: 1, title: "Read the README")])])
    }
}

#if canImport(SwiftUI)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    struct TodosView: View {
        let todos: StatefulEndpoint<[Todo]>

        var body: some View {
            Text("\(todos.value?.count ?? 0) todos")
                .overlay { if todos.state.isLoading { ProgressView() } }
                .task { todos.loadIfNeeded() }
        }
    }
#endif

/// The upstream API of the server snippet.
private struct RatesAPI {
    let url: URL
    init() throws { url = try #require(URL(string: "https://rates.example.com/rates")) }
    func rates() -> Endpoint<[String: Double]> { Endpoint(json: .get, url: url) }
}
