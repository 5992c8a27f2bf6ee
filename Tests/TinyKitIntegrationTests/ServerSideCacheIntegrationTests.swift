import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit
import TinyKitTestServer

/// A server process keeping an upstream API's answer in an `EndpointCache`, over real HTTP and the live
/// `URLSessionTransport` (the same over `AsyncHTTPClientTransport`: that package's `ServerSideCacheTests`): many
/// concurrent request handlers, none on the main actor, one upstream request per stale value.
@Suite(.timeLimit(.minutes(1))) struct ServerSideCacheIntegrationTests {
    struct Rates: Decodable, Sendable, Equatable { var eur: Double }

    @Test func concurrentHandlersShareOneUpstreamLoadAndA304RenewsTheValueForItsMaxAge() async throws {
        let upstream = try await TestServer.start()
        defer { upstream.stop() }
        let notModified = Locked(0)
        await upstream.route("GET /rates") { request in
            guard request.header("If-None-Match") == #""r1""# else {
                try await Task.sleep(for: .milliseconds(50))  // most handlers arrive while the load is in flight
                return .json(200, #"{"eur": 0.92}"#, headers: ["ETag": #""r1""#, "Cache-Control": "max-age=30"])
            }
            notModified.withLock { $0 += 1 }
            return TestResponse(status: 304)  // no Cache-Control: max-age=30 of the response it confirms holds
        }
        let decodes = Locked(0)
        let endpoint = Endpoint<Rates>(request: URLRequest(url: upstream.url("/rates"))) { data, _ in
            decodes.withLock { $0 += 1 }
            return Result { try JSONDecoder().decode(Rates.self, from: data ?? Data()) }
        }
        let clock = TestClock()
        let rates = EndpointCache(endpoint: endpoint, transport: URLSessionTransport(), clock: clock)

        // 100 request handlers of the server at once, on the global executor.
        func handleRequests() async throws -> [Rates] {
            try await withThrowingTaskGroup(of: Rates.self) { group in
                for _ in 0..<100 { group.addTask { try await rates.value() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }

        var upstreamRequests: [Int] = []
        for secondsLater in [0, 31, 29, 2] {  // first load; stale: a 304; still fresh; stale again: a 304
            clock.advance(by: .seconds(secondsLater))
            let answers = try await handleRequests()
            #expect(answers.count == 100 && answers.allSatisfy { $0 == Rates(eur: 0.92) })
            upstreamRequests.append(upstream.requests.count)
        }

        #expect(upstreamRequests == [1, 2, 2, 3])
        #expect(upstream.requests.map { $0.header("If-None-Match") } == [nil, #""r1""#, #""r1""#])
        #expect(notModified.withLock { $0 } == 2)
        #expect(decodes.withLock { $0 } == 1)  // a 304 is never decoded
    }
}
