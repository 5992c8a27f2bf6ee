import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// Refreshes `Bearer old` to `Bearer new`, counting its refreshes.
private actor RotatingTokens: CredentialProvider {
    private var token = "old"
    private(set) var refreshes = 0

    func credential() -> String? { "Bearer \(token)" }

    func refreshCredential(rejected: String?) -> String {
        refreshes += 1
        token = "new"
        return "Bearer \(token)"
    }
}

/// The transport middleware over TinyMocks' `MockTransport`, under the consumers `load` and `StatefulEndpoint`.
@Suite(.timeLimit(.minutes(1))) struct MiddlewareOverMocksTests {
    let instant = TestClock()

    @Test func retryAndRefreshOverTheMockUnderLoadAndAStatefulEndpoint() async throws {
        let mock = MockTransport()
        mock.register(.get, "/todos", .status(503), .status(401), .json(#"["a","b"]"#))
        let tokens = RotatingTokens()
        let transport = mock.with(.retry(RetryPolicy(maxAttempts: 2), clock: instant), .authorization(tokens))
        let endpoint = Endpoint<[String]>(json: .get, url: try #require(URL(string: "https://api.example.com/todos")))

        #expect(try await bounded { try await transport.load(endpoint) } == ["a", "b"])
        #expect(
            mock.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [
                "Bearer old", "Bearer old", "Bearer new",
            ])
        #expect(await tokens.refreshes == 1)

        let todos = StatefulEndpoint(endpoint: endpoint, transport: transport)
        await todos.loadIfNeeded()
        let loaded = try await bounded {
            for await state in await todos.states { if let value = state.value { return value } }
            return []
        }
        #expect(loaded == ["a", "b"])
        #expect(mock.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer new")
    }
}
