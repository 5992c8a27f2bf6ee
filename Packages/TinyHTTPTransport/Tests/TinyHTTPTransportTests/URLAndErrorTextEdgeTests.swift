import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Edges of URL building, of the failures a URL's scheme or host causes, and of the one-line texts errors and logs
/// print: bugs a hunt found (fixed, each test failed before its fix), and what was checked and holds.
@Suite(.timeLimit(.minutes(1))) struct URLAndErrorTextEdgeTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    /// Whether `text` holds no line break (`\n`, `\r`, or another newline character).
    private func isOneLine(_ text: String?) -> Bool { text.map { !$0.contains(where: \.isNewline) } ?? false }

    // MARK: - URL building

    /// URL+Building.swift `appendPath(_:)`: appending nothing (a root endpoint's path, `""`) added a slash to the base
    /// path, `https://api.example.com/v1` became `…/v1/`: another resource (a 404, or a redirect, on servers that
    /// route `/v1` and `/v1/` apart). `URL(string: "", relativeTo:)` is the base itself, and TinyAPIEndpoint skips
    /// `appendPath` for an empty path for this reason; `appendingRelative("")` did not.
    @Test func appendingAnEmptyPathKeepsTheURL() throws {
        let base = try url("https://api.example.com/v1?page=2")
        #expect(base.appendingRelative("").absoluteString == "https://api.example.com/v1?page=2")
        // A base that ends with a slash already keeps it, and a path of slashes asks for the trailing slash.
        #expect(
            try url("https://api.example.com/v1/").appendingRelative("").absoluteString == "https://api.example.com/v1/"
        )
        #expect(base.appendingRelative("/").absoluteString == "https://api.example.com/v1/?page=2")
    }

    /// Hosts that are not plain names keep their form, port and zone through both builders and the redaction: an
    /// IPv6 literal (with a zone, `%25eth0`), an IDN host (sent as its A-label), a port.
    @Test(arguments: [
        ("http://[::1]:8080/v1", "http://[::1]:8080"),
        ("http://[fe80::1%25eth0]/v1", "http://[fe80::1%25eth0]"),
        ("https://bücher.example/v1", "https://xn--bcher-kva.example"),
        ("https://ada:pw@127.0.0.1:8443/v1", "https://ada:pw@127.0.0.1:8443"),
    ])
    func unusualHostsKeepTheirFormThroughTheBuilders(base: String, origin: String) throws {
        let built = try url(base).appendingRelative("a b/ü").appendingQueryItems([URLQueryItem(name: "q", value: "+")])
        #expect(built.absoluteString == origin + "/v1/a%20b/%C3%BC?q=%2B")
        let shown = origin.replacingOccurrences(of: "ada:pw@", with: "***:***@")
        #expect(HTTPRedaction.default.redacted(url: built) == shown + "/v1/a%20b/%C3%BC?q=%2B")
    }

    // MARK: - What a URL's scheme or host makes of a failure

    #if canImport(Glibc)
        /// HTTPTransportError.swift `init(mapping:request:)` with SessionDelegate.swift `willPerformHTTPRedirection`:
        /// a `302` to a URL no HTTP client loads (an OAuth app callback `myapp://…`, `gopher:`, `mailto:`, `data:`,
        /// an `https:///` without host) was followed on Linux, and the failure of the redirected load was taken for the
        /// original request's. A scheme libcurl lacks (`gopher`) failed as URLError `unsupportedURL`, mapped for an
        /// `http(s)` request to "the reply is not HTTP", though the reply was a proper `302`; the others failed as
        /// `badURL` ("HTTP URL must have a host"), mapped to `invalidRequest`, "the request cannot be sent as it
        /// is", though the request was fine and sent. The AsyncHTTPClient transport does not follow such a
        /// `Location`: it returns the `302`, as TinyKit's session now does.
        @Test(arguments: [
            "myapp://callback?code=s3cret", "gopher://127.0.0.1:1/x", "mailto:ada@example.com", "data:,hello",
            "https:///landing",
        ])
        func aRedirectToAURLNoHTTPClientLoadsIsNotBlamedOnTheRequestOrTheReply(location: String) async throws {
            let server = try ScriptedHTTPServer(
                reply: ScriptedHTTPServer.response(302, headers: ["Location: \(location)"]))
            let transport = URLSessionTransport(configuration: .ephemeral)

            let (_, response) = try await transport.send(URLRequest(url: try server.url("/authorize")))
            #expect(response.statusCode == 302)
            #expect(response.value(forHTTPHeaderField: "Location") == location)
            #expect(server.heads.count == 1)
        }
    #endif

    /// HTTPTransportError.swift `init(mapping:request:)`: `unsupportedURL` for an `http(s)` request was always "the
    /// reply is not HTTP", which is what libcurl means by it on Linux (`Received HTTP/0.9`). Apple's URLSession reports
    /// a URL it cannot load at all as `unsupportedURL` (a request URL without host: `https:///items`, a base URL
    /// built from an empty host setting); the failure was then `.other`, blaming a reply that never came, instead of
    /// `invalidRequest`, which the AsyncHTTPClient transport gives for the same request.
    @Test func anUnsupportedURLWithoutHostIsAnInvalidRequest() throws {
        let request = URLRequest(url: try url("https:///items"))
        let failure = URLError(.unsupportedURL, userInfo: [NSURLErrorFailingURLErrorKey: try url("https:///items")])

        let mapped = HTTPTransportError(mapping: failure, request: request)

        #expect(mapped.code == .invalidRequest, "\(mapped)")
    }

    // MARK: - One line

    /// HTTPTransportError.swift `description(redacting:)` promises "one line saying what happened", and the logging
    /// middleware's trace lines and `localizedDescription` are built from it, but the body preview was the body's text
    /// as it was: a pretty-printed JSON error body (common) made the description several lines, and a body with
    /// `\r\n` let the server write a line of its own into a log that printed the error.
    @Test func aDescriptionWithABodyOfSeveralLinesIsOneLine() throws {
        let request = URLRequest(method: .get, url: try url("https://api.example.com/items/7"))
        let response = try #require(
            HTTPURLResponse(
                url: try url("https://api.example.com/items/7"), statusCode: 404, httpVersion: nil,
                headerFields: nil))
        let body = Data("{\n  \"error\": \"not found\"\r\nWARNING admin logged in\n}".utf8)
        let error = HTTPTransportError(.unacceptableStatus(404), request: request, response: response, body: body)

        #expect(
            error.description.hasPrefix("HTTP request unacceptable status 404: GET https://api.example.com/items/7"))
        #expect(isOneLine(error.description), "\(error.description.debugDescription)")
    }

    /// HTTPRedaction.swift `summary(of:)` ("the request in one line", used by `description` and by each of the
    /// logging middleware's lines) printed the method as it was, while `validate()` quotes it escaped
    /// (`debugDescription`) in its message: a method with CR/LF, which `validate()` refuses, still broke the line,
    /// and the logging middleware logs the request's `→` line before the transport refuses it.
    @Test func aSummaryOfAMethodWithALineBreakIsOneLine() throws {
        var request = URLRequest(url: try url("https://api.example.com/items"))
        request.httpMethod = "GET\r\nINFO forged line"

        let summary = HTTPRedaction.default.summary(of: request)
        let refusal = #expect(throws: HTTPTransportError.self) { try request.validate() }

        #expect(isOneLine(refusal?.message))
        #expect(isOneLine(summary), "\(summary.debugDescription)")
        #expect(isOneLine(refusal?.description))
    }

    // MARK: - HTTP dates

    /// An IMF-fixdate with a field out of its range (day 32, 31 February, hour 24, minute 60) is no date (the lenient
    /// parse would roll it over into the next day or month), nor is one in another zone than `GMT` (RFC 9110 §5.6.7).
    @Test(arguments: [
        "Sun, 32 Nov 2026 08:49:37 GMT", "Tue, 31 Feb 2026 08:49:37 GMT", "Thu, 26 Nov 2026 24:00:00 GMT",
        "Thu, 26 Nov 2026 08:60:00 GMT", "Thu, 26 Nov 2026 08:49:37 UTC", "Thu, 26 Nov 2026 08:49:37 +0000",
    ])
    func anIMFDateOutOfRangeOrInAnotherZoneIsNoDate(date: String) throws {
        let headers = ["Date": "Thu, 26 Nov 2026 00:00:00 GMT", "Retry-After": date]
        let response = try #require(
            HTTPURLResponse(url: try url("https://h/x"), statusCode: 503, httpVersion: nil, headerFields: headers))
        #expect(response.duration(untilDateIn: "Retry-After") == nil)
    }

    /// `HTTPRedaction.oneLine(_:)` escapes every control character but tab (C0, DEL, C1) and the two Unicode line and
    /// paragraph separators, and keeps all else as it came.
    @Test func oneLineEscapesControlsAndTheUnicodeSeparatorsOnly() {
        let text = "a\tb\nc\rd\u{1B}e\u{7F}f\u{85}g\u{2028}h\u{2029}i é 👍"
        #expect(HTTPRedaction.oneLine(text) == "a\tb" + #"\nc\rd\u{1B}e\u{7F}f\u{0085}g\u{2028}h\u{2029}i é 👍"#)
    }
}
