import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// The review of the sixth session's endpoint fixes: a whitespace body under a `Content-Type` that is not JSON.
@Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
    /// Endpoint+JSON.swift `decodeBody`: "an empty body (or JSON whitespace alone) decodes as `nil` when `A` is
    /// optional, as `EmptyResponse` and as `""`", and an empty body does so whatever its `Content-Type`. The `"\n"`
    /// the fix was for comes from servers that label it as they label everything (PHP's `echo "\n"` is `text/html`):
    /// the whitespace was looked at only after the `Content-Type` check, so it failed as `unexpectedContentType`
    /// where the empty body beside it succeeds.
    @Test(arguments: ["text/html; charset=UTF-8", "text/plain"])
    func aWhitespaceBodyIsNoValueWhateverItsContentTypeAsAnEmptyOneIs(contentType: String) throws {
        let url = try apiURL("/todos/1")
        let response = try makeResponse(200, for: URLRequest(url: url), headers: ["Content-Type": contentType])
        for body in ["", "\n", " \r\n\t"] {
            let data = Data(body.utf8)
            let optional = try Endpoint<User?>(json: .get, url: url).parse(data, response).get()
            #expect(optional == nil, "\(body.debugDescription)")
            #expect(
                try Endpoint<EmptyResponse>(json: .get, url: url).parse(data, response).get() == EmptyResponse(),
                "\(body.debugDescription)")
            let error = try #require(throws: EndpointError.self) {
                try Endpoint<User>(json: .get, url: url).parse(data, response).get()
            }
            guard case .noData("User", _) = error else {
                Issue.record("expected noData for \(body.debugDescription), got \(error)")
                continue
            }
        }
        // A body with a value is still refused for its Content-Type, and a text result keeps its whitespace.
        #expect(throws: EndpointError.self) {
            try Endpoint<EmptyResponse>(json: .get, url: url).parse(Data("<html>".utf8), response).get()
        }
        #expect(try Endpoint<String>(json: .get, url: url).parse(Data("\n".utf8), response).get() == "\n")
    }
}
