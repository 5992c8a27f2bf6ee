import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// `Data` and `String` request bodies are sent as they are, never JSON-encoded (a `Data` would become a base64 JSON
/// string), with a `Content-Type` that does not claim JSON unless the caller sets one.
@Suite(.timeLimit(.minutes(1))) struct RawBodyTests {
    static let bytes = Data([0x00, 0xFF, 0x7B, 0x0A])

    @Test func dataIsSentAsItIsAsOctetStream() throws {
        let endpoint = Endpoint<User>(json: .post, url: try apiURL("/upload"), body: Self.bytes)
        let empty = Endpoint<()>(json: .put, url: try apiURL("/upload"), body: Self.bytes)
        for request in [endpoint.request, empty.request] {
            #expect(request.httpBody == Self.bytes)
            #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        }
        #expect(endpoint.requestError == nil && empty.requestError == nil)
    }

    @Test func aStringIsSentAsUTF8Text() throws {
        let endpoint = Endpoint<User>(json: .post, url: try apiURL("/notes"), body: "name=Ada & \"é\"")
        let empty = Endpoint<()>(json: .post, url: try apiURL("/notes"), body: "name=Ada & \"é\"")
        for request in [endpoint.request, empty.request] {
            #expect(request.httpBody == Data("name=Ada & \"é\"".utf8))
            #expect(request.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        }
    }

    @Test func theCallersContentTypeWins() throws {
        let json = Data(#"{"name":"Ada"}"#.utf8)
        let endpoint = Endpoint<User>(
            json: .post, url: try apiURL("/users"), body: json, headers: ["content-type": "application/json"])
        #expect(endpoint.request.httpBody == json)
        #expect(endpoint.request.allHTTPHeaderFields?.filter { $0.key.lowercased() == "content-type" }.count == 1)
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func theClientConveniencesKeepTheCallersOtherHeadersWithARawBody() async throws {
        let transport = StubTransport(body: #"{"name":"Ada"}"#)
        let client: any APIClientProtocol = TinyAPIClient(transport: transport)
        _ = try await client.post(
            to: "https://api.example.com", path: "/x", body: Self.bytes, headers: ["Authorization": "Bearer t"],
            as: User.self)
        let sent = try #require(transport.requests.first)
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    }

    @Test func otherValuesAreStillJSON() throws {
        let endpoint = Endpoint<User>(json: .post, url: try apiURL("/users"), body: ["bytes": Self.bytes])
        #expect(endpoint.request.httpBody == Data(#"{"bytes":"AP97Cg=="}"#.utf8))
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let noBody = Endpoint<User>(json: .get, url: try apiURL("/users"), body: Data?.none)
        #expect(noBody.request.httpBody == nil)
        #expect(noBody.request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch])
    func theClientConveniencesSendDataAndStringAsTheyAre(method: HTTPMethod) async throws {
        let transport = StubTransport(body: #"{"name":"Ada"}"#)
        let client: any APIClientProtocol = TinyAPIClient(transport: transport)
        func send(_ body: some Encodable & Sendable, headers: [String: String]? = nil) async throws -> User {
            if method == .post {
                try await client.post(
                    to: "https://api.example.com", path: "/x", body: body, headers: headers, as: User.self)
            } else {
                try await client.send(
                    method, to: "https://api.example.com", path: "/x", body: body, headers: headers, as: User.self)
            }
        }

        _ = try await send(Self.bytes)
        _ = try await send("plain text")
        _ = try await send(Data("{}".utf8), headers: ["Content-Type": "application/json"])
        _ = try await send("<a/>", headers: ["content-type": "application/xml"])  // the caller's, in any case
        _ = try await send(User(name: "Ada"))

        let sent = transport.requests
        #expect(
            sent.map(\.httpBody) == [
                Self.bytes, Data("plain text".utf8), Data("{}".utf8), Data("<a/>".utf8), Data(#"{"name":"Ada"}"#.utf8),
            ])
        #expect(
            sent.map { $0.value(forHTTPHeaderField: "Content-Type") } == [
                "application/octet-stream", "text/plain; charset=utf-8", "application/json", "application/xml",
                "application/json",
            ])
        #expect(sent[3].allHTTPHeaderFields?.keys.filter { $0.lowercased() == "content-type" }.count == 1)
        #expect(sent.allSatisfy { $0.method == method })
    }
}
