import Foundation
import Testing

@testable import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct HTTPTransportErrorTests {
    let request = URLRequest(method: .post, url: URL(fileURLWithPath: "/api/users"))

    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, HTTPTransportError.Code.cannotConnect),
        (.cannotFindHost, .cannotConnect),
        (.networkConnectionLost, .cannotConnect),
        (.notConnectedToInternet, .cannotConnect),
        (.dnsLookupFailed, .cannotConnect),
        (.timedOut, .timedOut),
        (.cancelled, .cancelled),
        (.badURL, .invalidRequest),
        (.unsupportedURL, .invalidRequest),
        (.badServerResponse, .other),
        (.cannotDecodeContentData, .other),
    ])
    func urlErrorCodesMapToCategories(urlCode: URLError.Code, expected: HTTPTransportError.Code) {
        #expect(HTTPTransportError.Code(urlErrorCode: urlCode) == expected)
        let mapped = HTTPTransportError(mapping: URLError(urlCode), request: request)
        #expect(mapped.code == expected)
        #expect(mapped.request == request)
        #expect((mapped.underlyingError as? URLError)?.code == urlCode)
    }

    /// libcurl reports a reply that is not HTTP (for example `HTTP/0.9` or an SSH banner) as `unsupportedURL`.
    @Test func unsupportedURLForAnHTTPRequestIsTheServersFault() throws {
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/x")))
        let mapped = HTTPTransportError(mapping: URLError(.unsupportedURL), request: request)
        #expect(mapped.code == .other)
        #expect(mapped.message == "the reply is not HTTP")
        let ftp = URLRequest(url: try #require(URL(string: "ftp://127.0.0.1/x")))
        #expect(HTTPTransportError(mapping: URLError(.unsupportedURL), request: ftp).code == .invalidRequest)
    }

    @Test(arguments: ["https://127.0.0.1:1/x", "HTTP://127.0.0.1:1/x", "HTTPS://127.0.0.1:1/x"])
    func unsupportedURLIsTheServersFaultForEveryHTTPScheme(url: String) throws {
        let request = URLRequest(url: try #require(URL(string: url)))
        let mapped = HTTPTransportError(mapping: URLError(.unsupportedURL), request: request)
        #expect(mapped.code == .other)
        #expect(mapped.message == "the reply is not HTTP")
    }

    @Test func nsErrorsOfTheURLDomainAreMappedToo() {
        let error = NSError(domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue)
        #expect(HTTPTransportError(mapping: error, request: nil).code == .timedOut)
    }

    @Test func otherErrorsMap() {
        #expect(HTTPTransportError(mapping: CancellationError(), request: nil).code == .cancelled)
        struct Odd: Error {}
        #expect(HTTPTransportError(mapping: Odd(), request: nil).code == .other)
        let existing = HTTPTransportError(.timedOut, message: "kept")
        let mapped = HTTPTransportError(mapping: existing, request: request)
        #expect(mapped.code == .timedOut)
        #expect(mapped.message == "kept")
        #expect(mapped.request == request)
    }

    /// An `HTTPTransportError` keeps the request it already names: only one without a request gets the given one.
    @Test func aMappedTransportErrorKeepsItsOwnRequest() {
        let own = URLRequest(method: .get, url: URL(fileURLWithPath: "/api/own"))
        let mapped = HTTPTransportError(mapping: HTTPTransportError(.timedOut, request: own), request: request)
        #expect(mapped.request == own)
    }

    @Test func descriptionOfAnUnacceptableStatusNamesEverything() throws {
        let url = try #require(request.url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 404, httpVersion: nil, headerFields: nil))
        let error = HTTPTransportError(
            .unacceptableStatus(404), request: request, response: response, body: Data(#"{"error":"nope"}"#.utf8))
        #expect(
            error.description
                == #"HTTP request unacceptable status 404: POST \#(url.absoluteString), body: {"error":"nope"}"#)
    }

    @Test func descriptionOfAFailureNamesTheUnderlyingError() {
        let error = HTTPTransportError(mapping: URLError(.timedOut), request: request)
        #expect(error.description.hasPrefix("HTTP request timed out: POST "))
        #expect(error.description.contains("underlying error: URLError -1001"))
    }

    @Test func descriptionShowsStatusMessageAndLongBodyPreview() throws {
        let url = try #require(request.url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
        let body = Data(String(repeating: "a", count: 300).utf8)
        let error = HTTPTransportError(.other, request: request, response: response, body: body, message: "bad JSON")
        #expect(error.description.contains(", status 200 (bad JSON), body: aaa"))
        #expect(error.description.hasSuffix("… (300 bytes)"))
    }

    /// FoundationNetworking's errors carry their reason: the description names the code and that reason only.
    @Test func descriptionNamesTheUnderlyingErrorsCodeAndReason() {
        let timeout = NSError(
            domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue,
            userInfo: [NSLocalizedDescriptionKey: "The request timed out."])
        let error = HTTPTransportError(mapping: timeout, request: nil)
        #expect(
            error.description == "HTTP request timed out, underlying error: URLError -1001 (The request timed out.)")
    }

    @Test func localizedDescriptionSaysWhatHappened() {
        let error: any Error = HTTPTransportError(.timedOut, message: "after 2 s")
        #expect(error.localizedDescription == (error as? HTTPTransportError)?.description)
        #expect(error.localizedDescription.contains("timed out"))
    }

    /// `localizedDescription` was the whole `description`, body preview included, so the common
    /// `.failure(error.localizedDescription)` (and `EndpointLoading`'s alert) put a `4xx` body on screen: a validation
    /// error echoing what the user typed, or a token endpoint's answer. It says everything else, a nested error's
    /// body left out too; `description`, for logs, keeps the preview.
    @Test func localizedDescriptionNeverShowsTheBody() throws {
        let url = try #require(URL(string: "https://auth.example.com/oauth/token"))
        let token = URLRequest(method: .post, url: url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 400, httpVersion: nil, headerFields: nil))
        let inner = HTTPTransportError(
            .unacceptableStatus(400), request: token, response: response, body: Data(#"{"refresh_token":"rt_1"}"#.utf8))
        let outer = HTTPTransportError(
            .unacceptableStatus(400), request: token, response: response, body: Data(#"{"password":"hunter2"}"#.utf8),
            underlyingError: inner)
        let shown = (outer as any Error).localizedDescription
        #expect(shown.hasPrefix("HTTP request unacceptable status 400: POST https://auth.example.com/oauth/token"))
        #expect(shown.contains("underlying error: HTTP request unacceptable status 400"))
        #expect(!shown.contains("hunter2") && !shown.contains("rt_1") && !shown.contains("body"), "\(shown)")
        #expect(outer.description.contains("hunter2") && outer.description.contains("rt_1"))
    }

    struct Problems: Decodable, Equatable {
        var errors: [String: [String]]
    }

    @Test func anErrorBodyDecodesInOneCallAndTheEvidenceStays() throws {
        let body = Data(#"{"errors":{"email":["is taken"]}}"#.utf8)
        let url = try #require(request.url)
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 422, httpVersion: nil, headerFields: ["X-Trace": "t1"]))
        let error = HTTPTransportError(.unacceptableStatus(422), request: request, response: response, body: body)

        #expect(try error.decodeBody(as: Problems.self) == Problems(errors: ["email": ["is taken"]]))
        let inferred: Problems = try error.decodeBody()
        #expect(inferred.errors["email"] == ["is taken"])
        #expect(error.response?.statusCode == 422)
        #expect(error.response?.value(forHTTPHeaderField: "X-Trace") == "t1")
        #expect(error.body == body)
    }

    @Test func anErrorBodyUsesTheGivenDecoder() throws {
        struct Snake: Decodable, Equatable { var errorCode: Int }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let error = HTTPTransportError(.unacceptableStatus(400), body: Data(#"{"error_code":7}"#.utf8))
        #expect(try error.decodeBody(as: Snake.self, decoder: decoder) == Snake(errorCode: 7))
    }

    @Test(arguments: [nil, Data()])
    func noBodyIsAValueNotFound(body: Data?) throws {
        let error = HTTPTransportError(.unacceptableStatus(500), body: body)
        #expect {
            try error.decodeBody(as: Problems.self)
        } throws: { thrown in
            guard case DecodingError.valueNotFound(_, let context) = thrown else { return false }
            return context.debugDescription == "the failure has no response body to decode as Problems"
        }
    }

    @Test func aBodyOfAnotherShapeIsTheDecodersError() {
        let error = HTTPTransportError(.unacceptableStatus(502), body: Data("<html>bad gateway</html>".utf8))
        #expect(throws: DecodingError.self) { try error.decodeBody(as: Problems.self) }
    }
}
