import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// An invalid URL's credentials in error messages, text results with a byte order mark, empty bodies under the status
/// rules, and how odd request parts are built: edge cases of the endpoint core's second hunt.
@Suite(.timeLimit(.minutes(1))) struct CredentialsTextAndEmptyBodyEdgeTests {
    /// `EndpointError.invalidURL` shows the URL "as given, unless it holds a secret (a password or user-name token…)".
    /// A base URL without `//` (a forgotten or mistyped scheme, the very mistake this error reports) has no authority
    /// to redact, so `user:password@host` was path text, printed whole, through `TinyAPIError` too; no longer.
    @Test(arguments: [
        "ada:s3cret@api.example.com/v1", "https:/ada:s3cret@api.example.com/v1", "https:ada:s3cret@api.example.com",
        "s3cret@api.github.com", "s3cret:x-oauth-basic@api.github.com",
        // A scheme typed without its colon: the credentials come after a `//`.
        "https//ada:s3cret@api.example.com/v1", "https;//s3cret@api.example.com",
    ])
    func aBaseURLWithoutAnAuthorityNeverPrintsItsCredentials(baseURL: String) async throws {
        let endpoint = TestAPIEndpoint(baseURL: baseURL, path: "/users")
        guard let (error, apiError) = try await invalidURLErrors(of: endpoint) else { return }
        #expect(!error.description.contains("s3cret"), "\(error)")
        #expect(!apiError.description.contains("s3cret"), "\(apiError)")
    }

    /// The same URLs with `//` are redacted, and a URL without one and without `@` is shown as it is.
    @Test func anInvalidURLWithAnAuthorityIsRedactedAndOneWithoutCredentialsShown() {
        let redacted = EndpointError.invalidURL("https://ada:s3cret@api.example.com:70000/v1", reason: "bad port")
        #expect(redacted.description == #"invalid URL "https://***:***@api.example.com:70000/v1": bad port"#)
        let plain = EndpointError.invalidURL("api.example.com/v1", reason: "no scheme")
        #expect(plain.description == #"invalid URL "api.example.com/v1": no scheme"#)
        // An `@` in a path segment is no user name: Discord's `/users/@me` is shown.
        let path = EndpointError.invalidURL("/users/@me/../x", reason: "dots")
        #expect(path.description == #"invalid URL "/users/@me/../x": dots"#)
    }

    /// A text result starts with the text, not with a byte order mark: a UTF-8 BOM is dropped, and a `utf-16` or
    /// `utf-32` body's BOM sets its byte order (big-endian without one). In a charset whose byte order is named
    /// (`utf-16be`), U+FEFF is a character, as RFC 2781 §3.3 says. A BOM before JSON is skipped too.
    @Test func aByteOrderMarkSetsTheByteOrderAndIsNotPartOfTheText() throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/text"))
        func text(_ bytes: [UInt8], _ contentType: String) throws -> String {
            let response = try makeResponse(200, for: URLRequest(url: apiURL()), headers: ["Content-Type": contentType])
            return try endpoint.parse(Data(bytes), response).get()
        }
        #expect(try text([0xEF, 0xBB, 0xBF, 0x4F, 0x4B], "text/plain") == "OK")
        #expect(try text([0xEF, 0xBB, 0xBF, 0x4F, 0x4B], #"text/plain; charset="UTF-8""#) == "OK")
        #expect(try text([0xFF, 0xFE, 0x4F, 0x00, 0x4B, 0x00], "text/plain; charset=utf-16") == "OK")
        #expect(try text([0xFE, 0xFF, 0x00, 0x4F, 0x00, 0x4B], "text/plain; charset=utf-16") == "OK")
        #expect(try text([0x00, 0x4F, 0x00, 0x4B], "text/plain; charset=utf-16") == "OK")
        #expect(try text([0xFF, 0xFE, 0x00, 0x00, 0x4F, 0x00, 0x00, 0x00], "text/plain; charset=utf-32") == "O")
        #expect(try text([0xFE, 0xFF, 0x00, 0x4F], "text/plain; charset=utf-16be") == "\u{FEFF}O")
        #expect(try text([0xEF, 0xBB, 0xBF] + Array(#""tok""#.utf8), "application/json") == "tok")
        let user = Endpoint<User>(json: .get, url: try apiURL("/me"))
        let json = Data([0xEF, 0xBB, 0xBF] + Array(#"{"name":"Ada"}"#.utf8))
        #expect(try user.parse(json, try makeResponse(200, for: user.request)).get() == User(name: "Ada"))
    }

    /// A body of JSON whitespace alone (`"\n"`, `" \r\n"`) failed as a decoding error for the results an empty body
    /// decodes to; it is no value, as an empty body: `nil`, `EmptyResponse()`, `""` from a JSON response, and `noData`
    /// for any other type.
    @Test(arguments: ["\n", " \r\n\t"])
    func aWhitespaceOnlyBodyIsNoValue(body: String) throws {
        let url = try apiURL("/todos/1")
        let response = try makeResponse(200, for: URLRequest(url: url), headers: ["Content-Type": "application/json"])
        let data = Data(body.utf8)
        #expect(try Endpoint<User?>(json: .get, url: url).parse(data, response).get() == nil)
        #expect(try Endpoint<EmptyResponse>(json: .get, url: url).parse(data, response).get() == EmptyResponse())
        #expect(try Endpoint<String>(json: .get, url: url).parse(data, response).get() == "")
        let error = try #require(throws: EndpointError.self) {
            try Endpoint<User>(json: .get, url: url).parse(data, response).get()
        }
        guard case .noData("User", _) = error else {
            Issue.record("expected noData, got \(error)")
            return
        }
        // Whitespace around a value is still that value.
        #expect(
            try Endpoint<User?>(json: .get, url: url).parse(Data(" {\"name\":\"Ada\"}\n".utf8), response).get()
                == User(name: "Ada"))
    }

    /// Empty answers to HEAD, 205 and an accepted 304, loaded: `()`, `EmptyResponse`, an optional and `String` succeed
    /// (whatever the `Content-Type` of a body that is not there); any other type is `noData` naming the status; and a
    /// status the endpoint does not accept fails as such before the body is looked at.
    @Test func emptyAnswersFollowTheStatusRulesFirstAndTheEmptyBodyRulesThen() async throws {
        let url = try apiURL("/todos/1")
        let accepted = expectedStatus([200, 205, 304])
        for status in [200, 205, 304] {
            let transport = StubTransport(
                status: status, headers: ["Content-Type": "text/html", "Content-Length": "42"])
            try await transport.load(Endpoint<()>(json: .head, url: url, expectedStatusCode: accepted))
            let empty = Endpoint<EmptyResponse>(json: .head, url: url, expectedStatusCode: accepted)
            #expect(try await transport.load(empty) == EmptyResponse())
            let optional = Endpoint<User?>(json: .get, url: url, expectedStatusCode: accepted)
            #expect(try await transport.load(optional) == nil)
            #expect(
                try await transport.load(Endpoint<String>(json: .get, url: url, expectedStatusCode: accepted)) == "")
            let user = Endpoint<User>(json: .get, url: url, expectedStatusCode: accepted)
            let error = try await #require(throws: EndpointError.self) { try await transport.load(user) }
            guard case .noData("User", let response) = error else {
                Issue.record("expected noData, got \(error)")
                continue
            }
            #expect(response?.statusCode == status)
        }
        // The default 2xx refuses the 304 with the evidence, and never calls it a missing body.
        let error = try await #require(throws: HTTPTransportError.self) {
            try await StubTransport(status: 304).load(Endpoint<User?>(json: .get, url: url))
        }
        #expect(error.code == .unacceptableStatus(304))
        #expect(error.request?.url == url)
    }

    /// A JSON body is encoded with the encoder given (its date strategy too), a lower-case method is sent upper-case,
    /// a header given in lower case replaces the default of the same name, and a query is appended before the
    /// fragment, after the URL's own query item without a value.
    @Test func oddRequestPartsAreBuiltAsGiven() throws {
        struct Event: Encodable {
            var at: Date
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let endpoint = Endpoint<()>(
            json: "patch", url: try requireURL("https://api.example.com/events?draft#top"),
            body: Event(at: Date(timeIntervalSince1970: 0)), headers: ["accept": "application/problem+json"],
            query: ["b": "2", "a": "1"], encoder: encoder)
        #expect(endpoint.request.httpMethod == "PATCH")
        #expect(endpoint.request.httpBody?.text == #"{"at":"1970-01-01T00:00:00Z"}"#)
        #expect(endpoint.request.url?.absoluteString == "https://api.example.com/events?draft&a=1&b=2#top")
        #expect(endpoint.request.allHTTPHeaderFields?.filter { $0.key.lowercased() == "accept" }.count == 1)
        #expect(endpoint.request.value(forHTTPHeaderField: "Accept") == "application/problem+json")
        #expect(endpoint.description == "PATCH https://api.example.com/events?draft&a=1&b=2 (29 bytes)")
    }
}

/// Found by the fuzz target's dot-segment invariant: a combining mark after `/` (`"../\u{619}min"`) joined the slash
/// into one Character, so a Character split saw no `..` segment and the request went to the parent path.
@Suite(.timeLimit(.minutes(1))) struct DotSegmentBeforeACombiningMarkTests {
    struct Hidden: TinyAPIEndpoint {
        var baseURL: String { "https://api.example.com/v1" }
        var path: String { "../\u{619}min" }
        var method: HTTPMethod { .get }
    }

    @Test func aDotSegmentBeforeACombiningMarkIsRefused() throws {
        #expect(throws: EndpointError.self) { try Hidden().makeRequest() }
        let url = try #require(URL(string: "https://api.example.com/v1"))
        #expect(!url.appendingRelative("../\u{619}min").absoluteString.contains("/../"))
    }
}
