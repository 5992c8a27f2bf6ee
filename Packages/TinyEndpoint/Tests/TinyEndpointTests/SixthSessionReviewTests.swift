import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// The review of the sixth session's endpoint fixes: a whitespace body under a `Content-Type` that is not JSON, and a
/// server's value breaking a decoding error's line.
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

    /// A server value in the `Status` enum of a model.
    enum Status: String, Decodable { case active }

    /// A model with an enum field.
    struct Account: Decodable {
        var status: Status
    }

    /// EndpointError.swift `summary`: the coding path's keys are quoted and escaped so that "a line feed forged a log
    /// line" no more, but the decoder's message beside it is printed as it is, and Swift's message for an enum names
    /// the server's value ("Cannot initialize Status from invalid String value …"): a line feed in it breaks the
    /// description, the `localizedDescription` and the `TinyAPIError` message over two lines, the second one the
    /// server's.
    @Test func aServerValueInTheDecodersMessageDoesNotBreakTheLine() throws {
        let url = try apiURL("/me")
        let response = try makeResponse(200, for: URLRequest(url: url), headers: ["Content-Type": "application/json"])
        let body = Data(#"{"status":"x\nERROR forged line"}"#.utf8)
        let error = try #require(throws: EndpointError.self) {
            try Endpoint<Account>(json: .get, url: url).parse(body, response).get()
        }
        for text in [error.description, error.localizedDescription, TinyAPIError(error).description] {
            #expect(!text.contains("\n"), "\(text.debugDescription)")
            #expect(text.contains("Status"), "\(text)")
        }
    }

    /// EndpointError.swift `summary`: the `Content-Type` of a refused response, the server's text, was quoted as it
    /// came, while every other server text in a message is escaped onto one line: a value with a quote or a control
    /// character (an escape sequence for the terminal the log is read in) went into the message as it was.
    @Test func aRefusedContentTypeIsQuotedAndEscaped() throws {
        let url = try apiURL("/users/ada")
        let contentType = "text/html; q=\"a\"\u{1B}[2J"
        let response = try makeResponse(200, for: URLRequest(url: url), headers: ["Content-Type": contentType])
        let error = try #require(throws: EndpointError.self) {
            try Endpoint<User>(json: .get, url: url).parse(Data("<p>".utf8), response).get()
        }

        #expect(
            error.localizedDescription.hasPrefix(#"expected a JSON response, got Content-Type "text/html; q=\"a\""#),
            "\(error.localizedDescription)")
        #expect(!error.localizedDescription.contains("\u{1B}"), "\(error.localizedDescription)")
    }
}
