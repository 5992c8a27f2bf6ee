import Foundation
import Testing

@testable import TinyHTTPTransport

/// A `URLProtocol` stub that reads what to do from the request itself, so parallel tests share no table:
/// the header `X-Stub` is `status <code>` (the body then echoes the method and URL), `error <URLError code>` or
/// `hang` (nothing until the request is cancelled).
final class StubProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let words = (request.value(forHTTPHeaderField: "X-Stub") ?? "status 200").split(separator: " ")
        let number = words.count > 1 ? Int(words[1]) ?? 0 : 0
        switch words.first {
        case "status":
            guard let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: number, httpVersion: "HTTP/1.1", headerFields: ["X-Stubbed": "yes"])
            else { return }
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            let echo = "\(request.httpMethod ?? "GET") \(url.absoluteString)"
            client?.urlProtocol(self, didLoad: Data(echo.utf8))
            client?.urlProtocolDidFinishLoading(self)
        case "error":
            // Optional on Linux, not on Apple platforms: the explicit type keeps both free of warnings.
            let code: URLError.Code? = URLError.Code(rawValue: number)
            client?.urlProtocol(self, didFailWithError: URLError(code ?? .unknown))
        default:
            break  // "hang": answer nothing; stopLoading comes with the cancellation
        }
    }

    override func stopLoading() {}
}

@Suite(.timeLimit(.minutes(1))) struct URLSessionTransportStubTests {
    let transport: URLSessionTransport = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        return URLSessionTransport(configuration: configuration)
    }()

    private func request(_ stub: String, method: HTTPMethod = .get) throws -> URLRequest {
        var request = URLRequest(method: method, url: try #require(URL(string: "https://stub.example/items?x=1")))
        request.setValue(stub, forHTTPHeaderField: "X-Stub")
        return request
    }

    @Test(arguments: [200, 201, 304, 404, 500])
    func everyStatusIsReturnedAsAResponse(status: Int) async throws {
        let (body, response) = try await transport.send(try request("status \(status)", method: .put))
        #expect(response.statusCode == status)
        #expect(response.value(forHTTPHeaderField: "X-Stubbed") == "yes")
        #expect(String(decoding: body, as: UTF8.self) == "PUT https://stub.example/items?x=1")
    }

    @Test(arguments: [
        (URLError.Code.timedOut, HTTPTransportError.Code.timedOut),
        (.cannotConnectToHost, .cannotConnect),
        (.notConnectedToInternet, .cannotConnect),
        (.cannotParseResponse, .other),
    ])
    func failuresAreMapped(urlCode: URLError.Code, expected: HTTPTransportError.Code) async throws {
        let request = try request("error \(urlCode.rawValue)")
        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }
        #expect(error.code == expected)
        #expect(error.request?.url == request.url)
        #expect(
            HTTPTransportError.Code(urlErrorCode: try #require(error.underlyingError.map(urlCode(of:)))) == expected)
    }

    /// FoundationNetworking reports a connection closed before any response ("Empty reply from server") as
    /// `badServerResponse`: on Linux that is a lost connection, as Apple platforms and AsyncHTTPClient report it.
    @Test func badServerResponseWithoutAResponse() async throws {
        let request = try request("error \(URLError.Code.badServerResponse.rawValue)")
        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }
        #if canImport(FoundationNetworking)
            #expect(error.code == .cannotConnect)
            #expect(error.message == "the server closed the connection before any response")
        #else
            #expect(error.code == .other)
        #endif
        #expect(error.response == nil)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        let request = try request("hang")
        let transport = self.transport
        let task = Task { try await transport.send(request) }
        task.cancel()
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.code == .cancelled)
    }

    @Test func headerInjectionIsRefusedBeforeSending() async throws {
        var request = try request("status 200")
        request.allHTTPHeaderFields?["X-Forwarded-For"] = "x\r\nHost: evil"
        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }
        #expect(error.code == .invalidRequest)
        #expect(error.message?.contains("X-Forwarded-For") == true)
        #expect(error.response == nil)
    }

    @Test func requestWithoutURLIsInvalid() async throws {
        var request = try request("status 200")
        request.url = nil
        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }
        #expect(error.code == .invalidRequest)
        #expect(error.message == "the request has no URL")
    }

    @Test func urlSessionConformanceUsesTheSamePath() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        let session: any HTTPTransport = URLSession(configuration: configuration)
        let (_, response) = try await session.send(try request("status 418"))
        #expect(response.statusCode == 418)
        let error = try await #require(throws: HTTPTransportError.self) {
            try await session.send(try request("error \(URLError.Code.timedOut.rawValue)"))
        }
        #expect(error.code == .timedOut)
    }

    @Test func configurationIsKept() {
        #expect(transport.session.configuration.protocolClasses?.contains { $0 == StubProtocol.self } == true)
    }
}

/// The `URLError` code of an error the way FoundationNetworking reports it (a `URLError` or an `NSError`).
private func urlCode(of error: any Error) -> URLError.Code {
    let code: URLError.Code? = URLError.Code(rawValue: (error as NSError).code)
    return (error as? URLError)?.code ?? code ?? .unknown
}
