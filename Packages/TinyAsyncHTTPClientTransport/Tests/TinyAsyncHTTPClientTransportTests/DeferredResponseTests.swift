import AsyncHTTPClient
import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// `AsyncHTTPClientTransport` makes its `HTTPURLResponse` only when asked (`sendDeferringResponse(_:)`): an
/// `Endpoint` load gives what the same transport gives through `send(_:)`, whatever the response.
@Suite(.timeLimit(.minutes(1))) struct DeferredResponseTests {
    /// What loading `endpoint` gives: the value, or the error with the `X-Trace` field of the response it carries.
    static func outcome<A>(_ endpoint: Endpoint<A>, on transport: any HTTPTransport) async -> String {
        do {
            return "value \(try await transport.load(endpoint))"
        } catch {
            var response = (error as? HTTPTransportError)?.response
            if case .noData(_, let carried) = error as? EndpointError { response = carried }
            return "error \(error), trace \(response?.value(forHTTPHeaderField: "X-Trace") ?? "none")"
        }
    }

    @Test func anEndpointLoadGivesWhatTheResponseMadeAtOnceGives() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let trace = ["X-Trace": "t-1"]
        await server.route("GET /items", response: .json(200, "[1,2]", headers: trace))
        await server.route("GET /text", response: .text(200, "[1,2]", headers: trace))
        await server.route("GET /gone", response: .json(404, #"{"error":"gone"}"#, headers: trace))
        await server.route("GET /empty", response: .empty(204, headers: trace))
        await server.route("GET /object", response: .json(200, #"{"a":1}"#, headers: trace))

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
            // A middleware's transport makes the response at once (the default `sendDeferringResponse(_:)`).
            let made = transport.with(.defaultHeaders([:]))
            for path in ["/items", "/text", "/gone", "/empty", "/object"] {
                let items = Endpoint<[Int]>(json: .get, url: server.url(path))
                let deferred = await Self.outcome(items, on: transport)
                #expect(deferred == (await Self.outcome(items, on: made)), "\(path)")
                let void = Endpoint<Void>(json: .get, url: server.url(path))
                #expect(await Self.outcome(void, on: transport) == (await Self.outcome(void, on: made)), "\(path)")
            }
            #expect(
                await Self.outcome(Endpoint<[Int]>(json: .get, url: server.url("/items")), on: transport)
                    == "value [1, 2]")
            #expect(
                await Self.outcome(Endpoint<[Int]>(json: .get, url: server.url("/gone")), on: transport).hasSuffix(
                    "trace t-1"))
            #expect(
                await Self.outcome(Endpoint<[Int]>(json: .get, url: server.url("/empty")), on: transport).hasSuffix(
                    "trace t-1"))
        }
    }

    @Test func theDeferredResponseIsTheOneSendReturns() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /items", response: .json(201, "[1]", headers: ["X-Trace": "t-2", "ETag": #""v1""#]))

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
            let request = URLRequest(url: server.url("/items"))
            let sent = try await transport.sendDeferringResponse(request)
            let (body, response) = try await transport.send(request)
            let deferred = try sent.response()
            #expect(
                sent.body == body && sent.status == 201
                    && sent.contentType == response.value(forHTTPHeaderField: "Content-Type"))
            #expect(deferred.statusCode == response.statusCode && deferred.url == response.url)
            let fields = { (response: HTTPURLResponse) in
                response.allHeaderFields.filter { "\($0.key)" != "Date" }.map { "\($0.key): \($0.value)" }.sorted()
            }
            #expect(fields(deferred) == fields(response))
            #expect(deferred.value(forHTTPHeaderField: "ETag") == #""v1""#)
        }
    }
}
