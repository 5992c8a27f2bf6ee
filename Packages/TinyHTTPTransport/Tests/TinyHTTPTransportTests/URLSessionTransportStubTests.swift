import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// A `URLProtocol` stub that reads what to do from the request itself, so parallel tests share no table:
/// the header `X-Stub` is
/// - `status <code>`: the body echoes the method and URL;
/// - `empty <code>`: no body;
/// - `bytes <count>`: status 200, `count` bytes announced by `Content-Length` and sent in pieces of ten (sent so, a
///   body reaches only a session's delegate whole: FoundationNetworking hands a completion handler the last piece);
/// - `announce <count>`: status 200, `Content-Length: <count>`, the echo as the body;
/// - `trickle <count>`: status 200, `Content-Length: <count>`, ten bytes, then nothing until the request is cancelled;
/// - `head <count>`: status 200, `Content-Length: <count>`, then nothing until the request is cancelled;
/// - `challenge <code>`: the response with a `WWW-Authenticate` challenge; on Linux the session's delegate is asked
///   about it (as FoundationNetworking asks it), elsewhere the response ends as it is;
/// - `challenged <code>`: that response, then nothing until the request is cancelled;
/// - `error <URLError code>`: that failure, without a response;
/// - `broken <URLError code>`: a `200` response, then that failure;
/// - `plain`: a response that is not HTTP;
/// - `hang`: nothing until the request is cancelled.
final class StubProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let words = (request.value(forHTTPHeaderField: "X-Stub") ?? "status 200").split(separator: " ")
        let number = words.count > 1 ? Int(words[1]) ?? 0 : 0
        // Optional on Linux, not on Apple platforms: the explicit type keeps both free of warnings.
        let code: URLError.Code? = URLError.Code(rawValue: number)
        let echo = Data("\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")".utf8)
        switch words.first {
        case "status": respond(number, body: echo)
        case "empty": respond(number, body: Data())
        case "bytes":
            respond(
                200, headers: ["Content-Length": "\(number)"], body: Data(repeating: UInt8(ascii: "a"), count: number),
                piece: 10)
        case "announce": respond(200, headers: ["Content-Length": "\(number)"], body: echo)
        case "trickle":
            respond(200, headers: ["Content-Length": "\(number)"], body: Data(count: 10), finishing: false)
        case "head": respond(200, headers: ["Content-Length": "\(number)"], finishing: false)
        case "challenge":
            respond(number, headers: ["WWW-Authenticate": #"Basic realm="stub""#], finishing: false)
            #if canImport(FoundationNetworking)
                // FoundationNetworking answers for the delegate itself: cancelled, it cancels the task.
                let space = URLProtectionSpace(
                    host: request.url?.host ?? "", port: request.url?.port ?? 80, protocol: "http", realm: "stub",
                    authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
                let challenge = URLAuthenticationChallenge(
                    protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil,
                    error: nil, sender: NoSender())
                client?.urlProtocol(self, didReceive: challenge)
            #else
                client?.urlProtocolDidFinishLoading(self)  // TinyKit's delegate lets Apple platforms handle it
            #endif
        case "challenged":
            respond(number, headers: ["WWW-Authenticate": #"Basic realm="stub""#], finishing: false)
        case "broken":
            respond(200, finishing: false)
            client?.urlProtocol(self, didFailWithError: URLError(code ?? .unknown))
        case "plain":
            guard let url = request.url else { return }
            let response = URLResponse(
                url: url, mimeType: "text/plain", expectedContentLength: 2, textEncodingName: nil)
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data("ok".utf8))
            client?.urlProtocolDidFinishLoading(self)
        case "error":
            client?.urlProtocol(self, didFailWithError: URLError(code ?? .unknown))
        default:
            break  // "hang": answer nothing; stopLoading comes with the cancellation
        }
    }

    override func stopLoading() {}

    /// Sends a response with `status`, `headers` and `X-Stubbed: yes`, then `body` in pieces of `piece` bytes.
    private func respond(
        _ status: Int, headers: [String: String] = [:], body: Data = Data(), piece: Int = .max, finishing: Bool = true
    ) {
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: headers.merging(["X-Stubbed": "yes"]) { $1 })
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        for start in stride(from: 0, to: body.count, by: piece) {
            client?.urlProtocol(self, didLoad: body.subdata(in: start..<min(start + piece, body.count)))
        }
        if finishing { client?.urlProtocolDidFinishLoading(self) }
    }
}

#if canImport(FoundationNetworking)
    /// The sender of the stub's challenges, which FoundationNetworking never calls (it acts on the delegate's answer).
    final class NoSender: NSObject, URLAuthenticationChallengeSender, Sendable {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }
#endif

@Suite(.timeLimit(.minutes(1))) struct URLSessionTransportStubTests {
    let transport = Self.transport()

    /// A transport over the stub, reading response bodies up to `maximumResponseBodySize` bytes.
    private static func transport(maximumResponseBodySize: Int = 10 * 1024 * 1024) -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        return URLSessionTransport(configuration: configuration, maximumResponseBodySize: maximumResponseBodySize)
    }

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

    @Test func aBodyOverTheLimitFailsWithTheResponse() async throws {
        let request = try request("bytes 26")
        let error = try await #require(throws: HTTPTransportError.self) {
            try await Self.transport(maximumResponseBodySize: 25).send(request)
        }
        #expect(error.code == .other)
        #expect(error.message == "the response body is larger than maximumResponseBodySize, 25 bytes")
        #expect(error.response?.statusCode == 200)
        #expect(error.body == nil)
        #expect(error.request == request)
    }

    /// The limit is the largest body read: a body of exactly that size, in several pieces, arrives whole.
    @Test func aBodyOfExactlyTheLimitArrivesWhole() async throws {
        let (body, response) = try await Self.transport(maximumResponseBodySize: 25).send(try request("bytes 25"))
        #expect(response.statusCode == 200)
        #expect(body == Data(repeating: UInt8(ascii: "a"), count: 25))
    }

    /// A `Content-Length` over the limit refuses the response before its body is read.
    @Test func aContentLengthOverTheLimitFails() async throws {
        let error = try await #require(throws: HTTPTransportError.self) {
            try await Self.transport(maximumResponseBodySize: 1000).send(try request("announce 1001"))
        }
        #expect(error.message == "the response body is larger than maximumResponseBodySize, 1000 bytes")
    }

    /// A `Content-Length` over the limit ends the transfer with the response head: the request waits for no byte of
    /// the body.
    @Test func aContentLengthOverTheLimitFailsBeforeAnyOfTheBody() async throws {
        let error = try await #require(throws: HTTPTransportError.self) {
            try await Self.transport(maximumResponseBodySize: 1000).send(try request("head 1001"))
        }
        #expect(error.message == "the response body is larger than maximumResponseBodySize, 1000 bytes")
        #expect(error.response?.statusCode == 200)
    }

    /// A body over the limit ends the transfer at once: the request does not wait for the rest of it.
    @Test func aBodyOverTheLimitEndsTheTransfer() async throws {
        let error = try await #require(throws: HTTPTransportError.self) {
            try await Self.transport(maximumResponseBodySize: 1000).send(try request("trickle 5000"))
        }
        #expect(error.message == "the response body is larger than maximumResponseBodySize, 1000 bytes")
    }

    /// On Linux a session without a delegate sends through its twin, whose delegate enforces the limit too; on Apple
    /// platforms such a session reads bodies whole.
    @Test func aGivenSessionWithoutADelegateHasTheLimitOnLinux() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        let given = URLSessionTransport(session: URLSession(configuration: configuration), maximumResponseBodySize: 25)
        #if canImport(FoundationNetworking)
            let error = try await #require(throws: HTTPTransportError.self) {
                try await given.send(try request("bytes 26"))
            }
            #expect(error.message == "the response body is larger than maximumResponseBodySize, 25 bytes")
        #else
            #expect(try await given.send(try request("bytes 26")).0.count == 26)
        #endif
    }

    @Test func aNegativeLimitCountsAsZero() async throws {
        let limited = Self.transport(maximumResponseBodySize: -5)
        #expect(try await limited.send(try request("empty 200")).0.isEmpty)
        let error = try await #require(throws: HTTPTransportError.self) {
            try await limited.send(try request("bytes 1"))
        }
        #expect(error.message == "the response body is larger than maximumResponseBodySize, 0 bytes")
    }

    @Test func theDefaultLimitIsTenMebibytes() {
        #expect(URLSessionTransport(configuration: .ephemeral).maximumResponseBodySize == 10 * 1024 * 1024)
        #expect(URLSessionTransport.defaultMaximumResponseBodySize == 10 * 1024 * 1024)
    }

    @Test func aResponseWithoutABodyArrives() async throws {
        let (body, response) = try await transport.send(try request("empty 204"))
        #expect(response.statusCode == 204)
        #expect(response.value(forHTTPHeaderField: "X-Stubbed") == "yes")
        #expect(body.isEmpty)
    }

    /// A challenge the session's delegate cancelled (on Linux, a `401` or a proxy's `407` carrying a challenge) fails
    /// as cancelled: its response is the result.
    @Test(arguments: [401, 407])
    func aCancelledChallengeReturnsItsResponse(status: Int) async throws {
        let (_, response) = try await transport.send(try request("challenge \(status)"))
        #expect(response.statusCode == status)
        #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="stub""#)
    }

    /// Only a connection closed before any response counts as not connecting: after a response, the failure keeps
    /// its own category.
    @Test func badServerResponseAfterAResponseIsAnotherFailure() async throws {
        let request = try request("broken \(URLError.Code.badServerResponse.rawValue)")
        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }
        #expect(error.code == .other)
        #expect(error.message == nil)
    }

    @Test func aResponseThatIsNotHTTPIsAFailure() async throws {
        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(try request("plain"))
        }
        #expect(error.code == .other)
        #expect(error.message == "expected an HTTP response, got URLResponse")
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        let request = try request("hang")
        let transport = self.transport
        let task = Task { try await transport.send(request) }
        task.cancel()
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.code == .cancelled)
    }

    /// The caller's own cancellation is no cancelled challenge: it fails as cancelled even after a `401` arrived.
    @Test func cancellingAfterAChallengedResponseArrivedIsCancelled() async throws {
        let request = try request("challenged 401")
        let transport = self.transport
        let task = Task { try await transport.send(request) }
        // Waits (polling, at most 30 s) until the stub's response reached the task.
        func responded() async -> Bool {
            await withCheckedContinuation { done in
                transport.session.getAllTasks { done.resume(returning: $0.first?.response != nil) }
            }
        }
        for _ in 0..<3000 where await !responded() { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(await responded())
        task.cancel()
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.code == .cancelled)
    }

    /// A task handed out by `makeDataTask` (the task of TinyEndpoint's `URLSession.load(_:onComplete:)` and
    /// `dataTask(endpoint:)`) that its caller cancels once a `401` arrived fails as cancelled: the delegate cancelled
    /// no challenge, so it is no cancelled challenge.
    @Test func cancellingAHandedOutTaskAfterA401ArrivedIsCancelled() async throws {
        let (results, completed) = AsyncStream.makeStream(of: Result<(Data, HTTPURLResponse), any Error>.self)
        let task = transport.session.makeDataTask(for: try request("challenged 401")) { completed.yield($0) }
        task.resume()
        // Waits (polling, at most 30 s) until the stub's response reached the task.
        for _ in 0..<3000 where task.response == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(task.response != nil)
        task.cancel()
        var iterator = results.makeAsyncIterator()
        let result = try #require(await iterator.next())
        let error = try #require(throws: HTTPTransportError.self) { try result.get() }
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

    /// A refusal given by the caller (an endpoint's body that could not be encoded) is the result, and the task
    /// handed back is already cancelled: nothing is sent.
    @Test func aRefusalFailsWithItsErrorAndTheTaskIsAlreadyCancelled() async throws {
        struct Unencodable: Error {}
        let request = try request("status 200")
        let session = transport.session
        let result = await withCheckedContinuation { continuation in
            let task = session.makeDataTask(for: request, refusal: Unencodable()) { continuation.resume(returning: $0) }
            #expect(task.state != .suspended)
            task.resume()
        }
        #expect(throws: Unencodable.self) { try result.get() }
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
