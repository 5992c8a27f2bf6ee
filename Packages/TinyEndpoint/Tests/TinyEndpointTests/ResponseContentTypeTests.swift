import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// An endpoint that expects JSON refuses a response labelled as something else before decoding it.
@Suite(.timeLimit(.minutes(1))) struct ResponseContentTypeTests {
    static let json = Data(#"{"name":"Ada"}"#.utf8)

    func response(contentType: String?) throws -> HTTPURLResponse {
        try makeResponse(
            200, for: URLRequest(url: apiURL()), headers: contentType.map { ["Content-Type": $0] } ?? [:])
    }

    @Test(arguments: ["application/xml", "text/html; charset=utf-8", "text/plain", "application/octet-stream"])
    func aResponseThatIsNotJSONIsRefusedNamingItsContentType(contentType: String) throws {
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/ada"))
        let error = try #require(throws: EndpointError.self) {
            try endpoint.parse(Self.json, response(contentType: contentType)).get()
        }
        guard case .unexpectedContentType(let got, let body) = error else {
            Issue.record("expected unexpectedContentType, got \(error)")
            return
        }
        #expect(got == contentType)
        #expect(body == Self.json)
        #expect(
            error.description == #"expected a JSON response, got Content-Type "\#(contentType)"; body: {"name":"Ada"}"#)
    }

    @Test(arguments: [
        nil, "application/json", "application/json; charset=utf-8", "Application/JSON", "text/json",
        "application/problem+json", "application/vnd.api+json;charset=UTF-8", "",
    ])
    func jsonAndAMissingContentTypeAreDecoded(contentType: String?) throws {
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/ada"))
        #expect(try endpoint.parse(Self.json, response(contentType: contentType)).get() == User(name: "Ada"))
    }

    @Test func emptyBodiesAndTextAreNotChecked() throws {
        let html = try response(contentType: "text/html")
        #expect(
            try Endpoint<EmptyResponse>(json: .delete, url: try apiURL()).parse(Data(), html).get() == EmptyResponse())
        #expect(try Endpoint<User?>(json: .get, url: try apiURL()).parse(nil, html).get() == nil)
        #expect(try Endpoint<String>(json: .get, url: try apiURL()).parse(Data("<p>".utf8), html).get() == "<p>")
    }

    @Test func theCheckCanBeTurnedOffForAMislabellingServer() async throws {
        let html = try response(contentType: "text/html")
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/ada"), checksContentType: false)
        #expect(try endpoint.parse(Self.json, html).get() == User(name: "Ada"))
        let posting = Endpoint<User>(
            json: .post, url: try apiURL("/users"), body: User(name: "Ada"), checksContentType: false)
        #expect(try posting.parse(Self.json, html).get() == User(name: "Ada"))
        #expect(
            try TestAPIEndpoint().endpoint(as: User.self, checksContentType: false).parse(Self.json, html).get().name
                == "Ada")

        let transport = StubTransport(body: #"{"name":"Ada"}"#, headers: ["Content-Type": "text/html"])
        #expect(
            try await TinyAPIClient(transport: transport, checksContentType: false).request(
                TestAPIEndpoint(), as: User.self
            ).name == "Ada")
    }

    @Test func theClientReportsItAsADecodingErrorKeepingTheEvidence() async throws {
        let transport = StubTransport(body: "<html>maintenance</html>", headers: ["Content-Type": "text/html"])
        let error = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient(transport: transport).request(TestAPIEndpoint(), as: User.self)
        }
        guard case .decodingError(let message) = error.kind else {
            Issue.record("expected decodingError, got \(error)")
            return
        }
        #expect(message.contains(#"got Content-Type "text/html""#))
        guard case .unexpectedContentType("text/html", let body) = error.underlyingError as? EndpointError else {
            Issue.record("expected unexpectedContentType, got \(String(describing: error.underlyingError))")
            return
        }
        #expect(body == Data("<html>maintenance</html>".utf8))
    }

    @Test func tinyHTTPsDecodeResponseChecksToo() throws {
        let decoder = JSONDecoder()
        #expect(throws: EndpointError.self) {
            let _: User = try decoder.decodeResponse(Self.json, try response(contentType: "application/xml"))
        }
    }
}
