import Foundation
import Testing
import TinyAsyncHTTPClientTransport
import TinyHTTPTransport
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The review of the sixth session's review fixes (`927be23..rev-c`), on both transports.
@Suite(.timeLimit(.minutes(1))) struct SixthSessionFixReviewTests {
    /// AsyncHTTPClientTransport.swift `send`, SessionDelegate.swift `willPerformHTTPRedirection`: the whitespace fix
    /// trimmed the response's fields on `AsyncHTTPClientTransport`, but both transports followed a `Location` with
    /// whitespace after it (`Location: http://host/next <TAB>`) as it came, to `/next%20%09`, a `404` (the response's
    /// own `Location` said `/next`). RFC 9110 §5.5: that whitespace is not part of the value; browsers drop it too.
    @Test(arguments: TransportUnderTest.allCases)
    func aLocationWithWhitespaceAfterItIsFollowed(_ kind: TransportUnderTest) async throws {
        let target = try await TestServer.start()
        defer { target.stop() }
        await target.route("GET /next", response: .text(200, "there"))
        let location = target.url("/next").absoluteString + " \t"
        let reply = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 5\r\nConnection: close\r\n\r\nmoved"
        let server = try RawSocketServer.start([.send(Data(reply.utf8))])
        defer { server.stop() }
        var request = URLRequest(url: server.url("/from"))
        request.timeoutInterval = 10
        var result: Result<(Data, HTTPURLResponse), any Error>?
        try await kind.with { transport in
            do { result = .success(try await transport.send(request)) } catch { result = .failure(error) }
        }

        let (body, response) = try #require(result).get()
        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "there")
    }

    /// `HTTPTransportError.description` names the URL that answered only after a redirect: an upper-case host, as an
    /// upper-case scheme, is none on either transport (checked: neither reports the host in lower case).
    @Test(arguments: TransportUnderTest.allCases)
    func anUpperCaseHostIsNoRedirectInTheDescription(_ kind: TransportUnderTest) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /x") { _ in .json(404, "{}") }
        let url = try #require(
            URL(string: server.url("/x").absoluteString.replacingOccurrences(of: "127.0.0.1", with: "LOCALHOST")))
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        var result: Result<(Data, HTTPURLResponse), any Error>?
        try await kind.with { transport in
            do { result = .success(try await transport.send(request)) } catch { result = .failure(error) }
        }

        let (body, response) = try #require(result).get()
        let error = HTTPTransportError(.unacceptableStatus(404), request: request, response: response, body: body)
        #expect(response.statusCode == 404)
        #expect(!error.description.contains("answered by"), "\(error.description)")
    }
}
