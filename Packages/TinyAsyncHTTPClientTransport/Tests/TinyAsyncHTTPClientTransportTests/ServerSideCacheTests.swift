import AsyncHTTPClient
import Foundation
import Testing
import TinyAsyncHTTPClientTransport
import TinyEndpoint
import TinyHTTPTransport
import TinyKitTestServer
import TinyStatefulEndpoint

/// A server process keeping an upstream API's answer in an `EndpointCache` over `AsyncHTTPClientTransport`: many
/// concurrent request handlers, one upstream request while the value is fresh, no main actor anywhere.
@Suite(.timeLimit(.minutes(1))) struct ServerSideCacheTests {
    struct Rates: Codable, Sendable, Equatable { var eur: Double }

    @Test func concurrentHandlersShareOneUpstreamLoadAndRevalidateWhenStale() async throws {
        let upstream = try await TestServer.start()
        defer { upstream.stop() }
        await upstream.route("GET /rates") { request in
            if request.header("If-None-Match") == #""r1""# { return TestResponse(status: 304) }
            try await Task.sleep(for: .milliseconds(50))  // every handler arrives while the load is in flight
            return .json(200, #"{"eur": 0.92}"#, headers: ["ETag": #""r1""#, "Cache-Control": "max-age=1"])
        }

        try await withClient { client in
            let rates = EndpointCache(
                endpoint: Endpoint<Rates>(json: .get, url: upstream.url("/rates")),
                transport: AsyncHTTPClientTransport(client: client))

            // 200 request handlers of the server, on the global executor.
            func handleRequests() async throws -> [Rates] {
                try await withThrowingTaskGroup(of: Rates.self) { group in
                    for _ in 0..<200 { group.addTask { try await rates.value() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let first = try await handleRequests()
            #expect(first.count == 200 && first.allSatisfy { $0 == Rates(eur: 0.92) })
            #expect(upstream.requests.count == 1)

            try await Task.sleep(for: .milliseconds(1_100))  // past max-age=1: stale, revalidated once
            let second = try await handleRequests()
            #expect(second.allSatisfy { $0 == Rates(eur: 0.92) })
            #expect(upstream.requests.map { $0.header("If-None-Match") } == [nil, #""r1""#])
        }
    }
}
