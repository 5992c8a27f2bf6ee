import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// What a newcomer copies first: the root README's TinyHTTP quick start when the server fails, compiled and run here.
/// (TinyKitTestServer's quick start is a test of TransportIntegrationTests, in ReadmeSnippetTests' list.)
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

        let ended = await finishes(within: 20) { @MainActor in
            // The README's lines, as written (on the main actor, as RootReadmeTests runs them).
            let users = StatefulEndpoint(endpoint: UsersAPI(url: baseURL.appendingRelative("users")).all())
            users.loadIfNeeded()
            for await state in users.states {
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
}
