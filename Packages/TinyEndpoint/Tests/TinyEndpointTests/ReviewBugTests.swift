import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// Bugs found in review: regression tests now; one still open is marked with `withKnownIssue`.
@Suite(.timeLimit(.minutes(1))) struct ReviewBugTests {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A ``TinyAPIClient`` keeps up to 64 requests in a dictionary keyed by their parts, whose hash was the path
    /// alone: a search sent with 64 terms, or one path on several servers, put every key in one bucket, each lookup
    /// comparing them all.
    @Test func callsThatDifferOnlyInQueryOrServerHashApart() {
        func call(_ baseURL: String, _ term: String?) -> AdHocAPIEndpoint {
            AdHocAPIEndpoint(
                baseURL: baseURL, path: "/search", method: .get, queryItems: term.map { [.init(name: "q", value: $0)] })
        }
        let terms = (0..<64).map { call("https://api.example.com", "term \($0)").hashValue }
        #expect(Set(terms).count == 64)
        #expect(call("https://api.example.com", nil).hashValue != call("http://localhost:8080", nil).hashValue)
        #expect(call("https://a.example", "x").hashValue != call("https://b.example", "x").hashValue)
        // Equal calls hash alike whatever the spelling: a base URL's `é` precomposed or as `e` + accent. (Not a
        // term's: where `URLQueryItem` bridges to `NSURLQueryItem`, its values may compare by code units, unequal.)
        let composed = call("https://caf\u{E9}.example", "x")
        let decomposed = call("https://cafe\u{301}.example", "x")
        #expect(composed == decomposed && composed.hashValue == decomposed.hashValue)
        #expect(Set([composed, decomposed]).count == 1)
    }

    /// `TinyAPIError(_:)` "classifies any error", but a `DecodingError` or `EncodingError` that did not come wrapped
    /// in an `EndpointError` (a custom parse of `endpoint(as:)`'s `Endpoint`, an own `APIClientProtocol`) becomes a
    /// `networkError` ("no response: could not connect, timed out…") with Foundation's generic text.
    @Test func aRawDecodingOrEncodingErrorIsClassifiedAsSuch() async throws {
        let missing = DecodingError.keyNotFound(
            Key(stringValue: "id"), .init(codingPath: [], debugDescription: "no id"))
        let unencodable = EncodingError.invalidValue(
            Double.nan, .init(codingPath: [Key(stringValue: "x")], debugDescription: "NaN"))
        // As it happens: a TinyAPIEndpoint's Endpoint whose parse step throws the decoder's error.
        let endpoint = try TestAPIEndpoint(path: "/users/1").endpoint(as: User.self).compactMap { _ in
            Result<Int, any Error>.failure(missing)
        }
        let thrown = try await #require(throws: (any Error).self) {
            try await StubTransport(body: #"{"name":"Ada"}"#, headers: ["Content-Type": "application/json"])
                .load(endpoint)
        }
        #expect(isDecodingError(TinyAPIError(thrown).kind))
        #expect(isEncodingError(TinyAPIError(unencodable).kind))
    }
}

private func isDecodingError(_ kind: TinyAPIError.Kind) -> Bool {
    if case .decodingError = kind { true } else { false }
}

private func isEncodingError(_ kind: TinyAPIError.Kind) -> Bool {
    if case .encodingError = kind { true } else { false }
}
