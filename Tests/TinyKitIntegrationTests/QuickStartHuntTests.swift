import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// What a newcomer copies first: the root README's TinyHTTP quick start when the server fails, and the quick start of
/// Packages/TinyKitTestServer/README.md (not in ReadmeSnippetTests' list), compiled and run here.
@Suite(.timeLimit(.minutes(1))) struct QuickStartHuntTests {
    /// Whether `body` finishes within `seconds`.
    func finishes(within seconds: Double, _ body: @escaping @Sendable () async -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await body()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// README.md, "Quick start, in each style", TinyHTTP: the loop waited for a `.success` only, so when the load
    /// failed (here a `500`) it never ended: the quick start hung instead of showing the error. (Examples/Combinations
    /// waits `where state.isSuccess || state.isFailure`.)
    @Test func theTinyHTTPQuickStartEndsWhenTheLoadFails() async throws {
        let testServer = try await TestServer.start()
        defer { testServer.stop() }
        await testServer.route("GET /users", response: .json(500, #"{"error":"down"}"#))
        let baseURL = testServer.baseURL

        let ended = await finishes(within: 20) {
            // The README's lines, as written (here off the main actor, as RootReadmeTests runs them).
            let users = StatefulEndpoint(endpoint: UsersAPI(url: baseURL.appendingRelative("users")).all())
            await users.loadIfNeeded()
            for await state in await users.states {
                if case .success(let everyone) = state {
                    print("\(everyone.count) users")
                    break
                }
                if case .failure(let error) = state {
                    print("failed: \(error)")
                    break
                }
            }
        }
        #expect(ended, "the quick start was still waiting after 20 s, its endpoint failed with a 500")
    }

    // Packages/TinyKitTestServer/README.md, "Quick start": verbatim but for `transport` (the test's) and `_`, which
    // the README spells `body` (never used: a warning).
    let transport: any HTTPTransport = URLSessionTransport(configuration: .ephemeral)

    @Test func loadsAUser() async throws {
        let server = try await TestServer.start()  // 127.0.0.1, a free port: one server per test
        defer { server.stop() }
        await server.route("GET /users/:id") { _ in .json(200, #"{"id":1,"name":"Ada"}"#) }

        let (_, response) = try await transport.send(URLRequest(url: server.url("/users/1")))

        #expect(response.statusCode == 200)
        #expect(server.requests.first?.path == "/users/1")  // method, path, query, headers, body as received
    }
}
