import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// `String` as the result type of a JSON endpoint is the body as text, in the charset of its `Content-Type`.
@Suite(.timeLimit(.minutes(1))) struct TextResponseTests {
    func response(contentType: String?) throws -> HTTPURLResponse {
        try makeResponse(
            200, for: URLRequest(url: apiURL()), headers: contentType.map { ["Content-Type": $0] } ?? [:])
    }

    @Test(arguments: [nil, "text/plain", "text/html; charset=utf-8", "text/plain; charset=\"UTF-8\""])
    func aStringIsTheBodyAsUTF8TextByDefault(contentType: String?) throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/hello"))
        let body = Data("héllo, \"world\"\n".utf8)
        #expect(try endpoint.parse(body, response(contentType: contentType)).get() == "héllo, \"world\"\n")
    }

    @Test(arguments: [
        ("text/plain; charset=iso-8859-1", Data([0x68, 0xE9]), "hé"),
        ("text/plain;charset=Windows-1252", Data([0x80]), "€"),
        ("text/csv; header=present; charset=utf-16be", Data([0x00, 0x61, 0x00, 0x2C]), "a,"),
    ])
    func theCharsetOfTheContentTypeIsUsed(contentType: String, body: Data, text: String) throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/text"))
        #expect(try endpoint.parse(body, response(contentType: contentType)).get() == text)
    }

    /// A response labelled JSON holds a JSON string, as the seeds decode it; without that label it is text.
    @Test func aJSONStringIsDecodedFromAResponseLabelledJSON() throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/token"))
        let body = Data(#""a\"b""#.utf8)
        #expect(try endpoint.parse(body, response(contentType: "application/json; charset=utf-8")).get() == #"a"b"#)
        #expect(try endpoint.parse(body, response(contentType: "text/plain")).get() == #""a\"b""#)
        #expect(try endpoint.parse(body, response(contentType: nil)).get() == #""a\"b""#)
        #expect(throws: EndpointError.self) {
            try endpoint.parse(Data("{}".utf8), response(contentType: "application/json")).get()
        }
    }

    @Test func anEmptyBodyIsAnEmptyStringOrNil() throws {
        #expect(
            try Endpoint<String>(json: .get, url: try apiURL()).parse(Data(), response(contentType: nil)).get() == "")
        #expect(
            try Endpoint<String?>(json: .get, url: try apiURL()).parse(nil, response(contentType: nil)).get() == nil)
        let text = try Endpoint<String?>(json: .get, url: try apiURL()).parse(Data("x".utf8), nil).get()
        #expect(text == "x")
    }

    @Test(arguments: [
        ("text/plain", Data([0x61, 0xFF]), "the body is not utf-8 text"),
        ("text/plain; charset=klingon", Data("a".utf8), "the charset \"klingon\" is not supported"),
    ])
    func textThatCannotBeReadIsADecodingFailureNeverLossy(contentType: String, body: Data, reason: String) throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL())
        let error = try #require(throws: EndpointError.self) {
            try endpoint.parse(body, response(contentType: contentType)).get()
        }
        guard case .decodingFailed(let type, _, _, let failed) = error else {
            Issue.record("expected decodingFailed, got \(error)")
            return
        }
        #expect(type == "String")
        #expect(failed == body)
        #expect(error.description.contains(reason))
    }

    @Test func theClientAndTinyAPIEndpointsDecodeTextToo() async throws {
        let transport = StubTransport(body: "plain old text", headers: ["Content-Type": "text/plain"])
        let client = TinyAPIClient(transport: transport)
        #expect(try await client.request(TestAPIEndpoint(path: "/motd"), as: String.self) == "plain old text")
        #expect(try await client.get(from: "https://x.dev", path: "/motd", as: String.self) == "plain old text")
        #expect(try await transport.load(TestAPIEndpoint().endpoint(as: String.self)) == "plain old text")
    }
}
