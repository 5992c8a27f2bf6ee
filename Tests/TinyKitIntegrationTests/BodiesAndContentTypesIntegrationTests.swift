import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// Request bodies, response content types and paths over `URLSessionTransport` and a real HTTP server: what is sent
/// is what was given, and what is decoded is what was asked for.
@Suite(.timeLimit(.minutes(1))) struct BodiesAndContentTypesIntegrationTests {
    let transport = URLSessionTransport(configuration: .ephemeral)
    static let bytes = Data([0x00, 0xFF, 0x7B, 0x22, 0x0D, 0x0A])

    // MARK: Absolute paths

    @Test func anAbsoluteURLAsAPathIsRefusedAndNothingIsSentAnywhere() async throws {
        let server = try await TestServer.start()
        let other = try await TestServer.start()
        defer {
            server.stop()
            other.stop()
        }
        let client = TinyAPIClient(transport: transport)
        let absolute = other.url("/admin").absoluteString

        let error = try await #require(throws: TinyAPIError.self) {
            try await bounded {
                try await client.get(from: server.baseURL.absoluteString, path: absolute, as: EmptyResponse.self)
            }
        }

        #expect(error == .invalidURL)
        guard case .invalidURL(let named, let reason) = error.underlyingError as? EndpointError else {
            Issue.record("expected EndpointError.invalidURL, got \(error)")
            return
        }
        #expect(named == absolute)
        #expect(reason.contains("absolute URL"))
        #expect(server.requests.isEmpty && other.requests.isEmpty)
    }

    // MARK: Raw bodies

    @Test func dataAndStringBodiesArriveAsTheyWereGiven() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let echo = server.url("/echo")

        let data = try await bounded { [transport] in
            try await transport.load(Endpoint<RecordedRequest>(json: .post, url: echo, body: Self.bytes))
        }
        let text = try await bounded { [transport] in
            try await transport.load(Endpoint<RecordedRequest>(json: .put, url: echo, body: "a=1 & \"é\""))
        }
        let json = try await bounded { [transport] in
            try await transport.load(
                Endpoint<RecordedRequest>(
                    json: .post, url: echo, body: Data(#"{"id":1}"#.utf8), headers: ["Content-Type": "application/json"]
                ))
        }
        let encoded = try await bounded { [transport] in
            try await transport.load(Endpoint<RecordedRequest>(json: .post, url: echo, body: ["blob": Self.bytes]))
        }

        #expect(data.body == Self.bytes)
        #expect(data.header("Content-Type") == "application/octet-stream")
        #expect(text.body == Data("a=1 & \"é\"".utf8))
        #expect(text.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(json.body == Data(#"{"id":1}"#.utf8))
        #expect(json.header("Content-Type") == "application/json")
        #expect(encoded.bodyText == #"{"blob":"AP97Ig0K"}"#)
        #expect(encoded.header("Content-Type") == "application/json")
    }

    @Test func theClientConveniencesSendDataAndStringAsTheyAre() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let client: any APIClientProtocol = TinyAPIClient(transport: transport)
        let base = server.baseURL.absoluteString

        let posted = try await bounded {
            try await client.post(to: base, path: "/echo", body: Self.bytes, as: RecordedRequest.self)
        }
        let patched = try await bounded {
            try await client.send(.patch, to: base, path: "/echo", body: "plain", as: RecordedRequest.self)
        }

        #expect(posted.body == Self.bytes)
        #expect(posted.header("Content-Type") == "application/octet-stream")
        #expect(patched.method == "PATCH")
        #expect(patched.bodyText == "plain")
        #expect(patched.header("Content-Type") == "text/plain; charset=utf-8")
    }

    // MARK: Text responses

    @Test func aStringResultIsTheBodyAsTextInItsCharset() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /motd", response: .text(200, "héllo, \"world\""))
        await server.route(
            "GET /latin1",
            response: TestResponse(
                headers: ["Content-Type": "text/plain; charset=iso-8859-1"], body: Data([0x68, 0xE9])))
        await server.route("GET /empty", response: .empty(200))

        let motd = try await bounded { [transport] in
            try await transport.load(Endpoint<String>(json: .get, url: server.url("/motd")))
        }
        let latin1 = try await bounded { [transport] in
            try await transport.load(Endpoint<String>(json: .get, url: server.url("/latin1")))
        }
        let empty = try await bounded { [transport] in
            try await transport.load(Endpoint<String>(json: .get, url: server.url("/empty")))
        }
        let viaClient = try await bounded { [transport] in
            try await TinyAPIClient(transport: transport)
                .get(from: server.baseURL.absoluteString, path: "/motd", as: String.self)
        }

        #expect(motd == "héllo, \"world\"")
        #expect(latin1 == "hé")
        #expect(empty == "")
        #expect(viaClient == motd)
    }

    // MARK: Error bodies

    @Test func anAPIsErrorBodyDecodesInOneCallKeepingStatusHeadersAndBytes() async throws {
        struct Problems: Decodable, Equatable, Sendable { var errors: [String: [String]] }
        let server = try await TestServer.start()
        defer { server.stop() }
        let body = #"{"errors":{"email":["is taken"]}}"#
        await server.route("POST /users") { _ in .json(422, body, headers: ["X-Request-ID": "r-1"]) }
        let endpoint = Endpoint<Named>(json: .post, url: server.url("/users"), body: Named(name: "Ada"))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await bounded { [transport] in try await transport.load(endpoint) }
        }

        #expect(try error.decodeBody(as: Problems.self) == Problems(errors: ["email": ["is taken"]]))
        #expect(error.code == .unacceptableStatus(422))
        #expect(error.response?.value(forHTTPHeaderField: "X-Request-ID") == "r-1")
        #expect(error.body == Data(body.utf8))

        // Through TinyAPIClient, the same error is the TinyAPIError's underlying error.
        let apiError = try await #require(throws: TinyAPIError.self) {
            try await bounded { [transport] in
                try await TinyAPIClient(transport: transport)
                    .post(to: server.baseURL.absoluteString, path: "/users", body: Named(name: "Ada"), as: Named.self)
            }
        }
        let underlying = try #require(apiError.underlyingError as? HTTPTransportError)
        #expect(try underlying.decodeBody(as: Problems.self).errors["email"] == ["is taken"])
    }

    // MARK: Content types

    @Test(arguments: ["text/html; charset=utf-8", "application/xml"])
    func jsonIsNotDecodedFromAResponseLabelledAsSomethingElse(contentType: String) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route(
            "GET /user",
            response: TestResponse(headers: ["Content-Type": contentType], body: Data(#"{"name":"Ada"}"#.utf8)))
        let endpoint = Endpoint<Named>(json: .get, url: server.url("/user"))

        let error = try await #require(throws: EndpointError.self) {
            try await bounded { [transport] in try await transport.load(endpoint) }
        }
        guard case .unexpectedContentType(let got, _) = error else {
            Issue.record("expected unexpectedContentType, got \(error)")
            return
        }
        #expect(got == contentType)

        // The opt-out for a server that mislabels its JSON.
        let lenient = Endpoint<Named>(json: .get, url: server.url("/user"), checksContentType: false)
        let decoded = try await bounded { [transport] in try await transport.load(lenient) }
        #expect(decoded == Named(name: "Ada"))
        let client = TinyAPIClient(transport: transport, checksContentType: false)
        let viaClient = try await bounded {
            try await client.get(from: server.baseURL.absoluteString, path: "/user", as: Named.self)
        }
        #expect(viaClient == Named(name: "Ada"))
    }

    @Test func jsonWithoutAContentTypeOrWithAJSONSuffixIsDecoded() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /bare", response: TestResponse(body: Data(#"{"name":"Ada"}"#.utf8)))
        await server.route(
            "GET /problem",
            response: TestResponse(
                headers: ["Content-Type": "application/problem+json"], body: Data(#"{"name":"Bob"}"#.utf8)))

        let bare = try await bounded { [transport] in
            try await transport.load(Endpoint<Named>(json: .get, url: server.url("/bare")))
        }
        let problem = try await bounded { [transport] in
            try await transport.load(Endpoint<Named>(json: .get, url: server.url("/problem")))
        }

        #expect(bare == Named(name: "Ada"))
        #expect(problem == Named(name: "Bob"))
    }
}

private struct Named: Codable, Equatable, Sendable {
    var name: String
}
