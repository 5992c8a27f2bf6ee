import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// Bugs found by reading the code, fixed: each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct ReviewFindingsGTests {
    func response(contentType: String) throws -> HTTPURLResponse {
        try makeResponse(200, for: URLRequest(url: apiURL()), headers: ["Content-Type": contentType])
    }

    /// RFC 9110 §8.3.1: parameter names are case-insensitive, so `Charset=ISO-8859-1` names Latin-1. Foundation on
    /// Linux reads only a lower-case `charset` into `textEncodingName`, so the body is decoded as UTF-8.
    @Test(arguments: [
        "text/plain; Charset=ISO-8859-1", "text/plain; CHARSET=iso-8859-1", "text/plain; charset=\"ISO-8859-1\"\t",
    ])
    func aCharsetParameterNamedInAnotherCaseIsUsed(contentType: String) throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/text"))
        let body = Data([0x68, 0xE9])  // "hé" in ISO-8859-1; not valid UTF-8
        let result = endpoint.parse(body, try response(contentType: contentType))
        // It was decodingFailed: "the body is not utf-8 text".
        #expect((try? result.get()) == "hé", "\(result)")
    }

    /// A UTF-16 body labelled `Charset=UTF-16LE` is not valid UTF-8 either: the same failure for another charset.
    @Test func aUTF16BodyWithACapitalisedCharsetParameterIsDecoded() throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/text"))
        let body = Data([0x68, 0x00, 0xE9, 0x00])  // "hé" in UTF-16LE
        let result = endpoint.parse(body, try response(contentType: "text/plain; Charset=UTF-16LE"))
        #expect((try? result.get()) == "hé", "\(result)")
    }

    /// The password of a base URL is a secret (`HTTPRedaction`: "every text TinyKit prints about a request goes
    /// through a redaction", and the password of a URL "is always redacted"). A base URL refused for its port
    /// prints it in `EndpointError.description` and in `TinyAPIError.localizedDescription`, which tinyAPI apps show
    /// to users (`.failure(error.localizedDescription)`).
    /// Text that does not parse as a URL cannot be redacted: it is not printed when it could hold a secret.
    @Test func anUnparseableURLThatCouldHoldASecretIsNotPrinted() {
        let refused = EndpointError.invalidURL("https://ada:s3cret@[::1/v1?api_key=k3y", reason: "no host")
        #expect(!refused.description.contains("s3cret") && !refused.description.contains("k3y"), "\(refused)")
        let fragment = EndpointError.invalidURL("https://[::1/cb#access_token=t0ken", reason: "no host")
        #expect(!fragment.description.contains("t0ken"), "\(fragment)")
        let plain = EndpointError.invalidURL("not a url", reason: "no scheme")
        #expect(plain.description.contains("not a url"))
    }

    @Test func anInvalidBaseURLNeverPrintsItsPassword() async throws {
        let endpoint = TestAPIEndpoint(baseURL: "https://ada:s3cret@api.example.com:70000/v1", path: "/users")
        guard let (error, apiError) = try await invalidURLErrors(of: endpoint) else { return }
        #expect(!error.description.contains("s3cret"))
        #expect(!error.localizedDescription.contains("s3cret"))
        #expect(!apiError.localizedDescription.contains("s3cret"))
        #expect(!apiError.description.contains("s3cret"))
    }

    /// The same for a secret query parameter of the base URL (`api_key` is secret in every redaction).
    @Test func anInvalidBaseURLNeverPrintsASecretQueryParameter() throws {
        let endpoint = TestAPIEndpoint(baseURL: "https://api.example.com:70000/v1?api_key=s3cret", path: "/users")
        let error = try #require(throws: EndpointError.self) { try endpoint.makeRequest() }
        #expect(!error.description.contains("s3cret"))
    }

    /// A path refused for being an absolute URL prints that URL whole, its password included.
    @Test func aPathRefusedAsAnAbsoluteURLNeverPrintsItsPassword() throws {
        let endpoint = TestAPIEndpoint(
            baseURL: "https://api.example.com/v1", path: "https://ada:s3cret@other.example.com/users")
        let error = try #require(throws: EndpointError.self) { try endpoint.makeRequest() }
        #expect(!error.description.contains("s3cret"))
    }

    /// `TinyAPIError` classifies the raw `URLError` of a transport that does not map its errors (documented), but its
    /// `description` appends `String(describing:)` of that error, whose `userInfo` holds the failing URL whole:
    /// the URL's password and secret query values are printed, where `HTTPTransportError` prints only the code.
    @Test func aRawURLErrorOfACustomTransportNeverPrintsTheURLsSecrets() async throws {
        let url = try requireURL("https://ada:s3cret@api.example.com/v1/users?api_key=k3y")
        let raw = URLError(
            .timedOut,
            userInfo: [NSURLErrorFailingURLErrorKey: url])
        let client = TinyAPIClient(transport: StubTransport(failingWith: raw))
        let endpoint = TestAPIEndpoint(
            baseURL: "https://ada:s3cret@api.example.com/v1", queryItems: [.init(name: "api_key", value: "k3y")])
        let error = try await #require(throws: TinyAPIError.self) {
            try await client.request(endpoint, as: [String].self)
        }
        #expect(error.kind == .networkError(raw.localizedDescription))
        #expect(!error.description.contains("s3cret"))
        #expect(!error.description.contains("k3y"))
        // The same error mapped by the live transport's mapping prints neither.
        let mapped = HTTPTransportError(mapping: raw, request: URLRequest(url: url))
        #expect(!TinyAPIError(mapped).description.contains("s3cret"))
        #expect(!TinyAPIError(mapped).description.contains("k3y"))
    }
}
