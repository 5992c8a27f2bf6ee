import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

#if canImport(Glibc)
    import Glibc
#endif

/// Bugs found by the endpoint hunt: regression tests now.
@Suite(.timeLimit(.minutes(1))) struct HuntTests {
    func response(contentType: String) throws -> HTTPURLResponse {
        try makeResponse(200, for: URLRequest(url: apiURL()), headers: ["Content-Type": contentType])
    }

    /// A `String` result is "never a lossy decoding": bytes that are not valid text in the charset are a decoding
    /// failure. A UTF-16 or UTF-32 body whose length is not a multiple of its code unit (a truncated body) decodes
    /// instead, its trailing bytes silently dropped.
    @Test(arguments: [
        ("text/plain; charset=utf-16le", Data([0x68, 0x00, 0x69])),
        ("text/plain; charset=utf-16be", Data([0x00, 0x68, 0x00])),
        ("text/plain; charset=utf-32le", Data([0x68, 0x00, 0x00, 0x00, 0x69])),
    ])
    func aBodyWithAPartialCodeUnitIsADecodingFailure(contentType: String, body: Data) throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/text"))
        let result = endpoint.parse(body, try response(contentType: contentType))
        // It is success("h").
        guard case .failure(EndpointError.decodingFailed(let type, _, _, let failed)) = result else {
            Issue.record("expected decodingFailed, got \(result)")
            return
        }
        #expect(type == "String")
        #expect(failed == body)
    }

    /// `euc-jp` was listed as a known charset, but Foundation on Linux cannot decode it: valid EUC-JP text failed
    /// with "the body is not euc-jp text". It is not supported, and the failure says so, on every platform.
    @Test func eucJPIsNotSupportedAndTheFailureSaysSo() throws {
        let endpoint = Endpoint<String>(json: .get, url: try apiURL("/text"))
        let body = Data([0xA4, 0xB3, 0xA4, 0xF3, 0xA4, 0xCB, 0xA4, 0xC1, 0xA4, 0xCF])  // こんにちは in EUC-JP
        let result = endpoint.parse(body, try response(contentType: "text/plain; charset=EUC-JP"))
        #expect(result.error.map { "\($0)" }?.contains("the charset \"EUC-JP\" is not supported") == true, "\(result)")
    }

    /// RFC 9110 §5.6.6: parameters are `*( OWS ";" OWS parameter )` and OWS is spaces *or horizontal tabs*. `isJSON`
    /// trims only spaces, so `application/json<TAB>; charset=utf-8` is refused as not JSON.
    @Test func aTabBeforeTheParametersOfAJSONContentTypeIsJSON() throws {
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/ada"))
        let body = Data(#"{"name":"Ada"}"#.utf8)
        let result = endpoint.parse(body, try response(contentType: "application/json\t; charset=utf-8"))
        #expect((try? result.get()) == User(name: "Ada"), "\(result)")
    }

    #if canImport(FoundationNetworking)
        /// `URLSession.load(_:onComplete:)` and `dataTask(endpoint:)`: "`onComplete` runs on the session's delegate
        /// queue". On Linux a session without a delegate sends through its twin, whose delegate queue is TinyKit's
        /// own: the completion never runs on the queue the session was made with (a serial queue the caller relies
        /// on, `.main`, …). Nothing listens on port 1 of the loopback interface: the connection is refused at once.
        @Test func theCompletionRunsOnTheSessionsDelegateQueue() async throws {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let session = URLSession(configuration: .ephemeral, delegate: nil, delegateQueue: queue)
            defer { session.finishTasksAndInvalidate() }
            let endpoint = Endpoint<()>(.get, url: try requireURL("http://127.0.0.1:1/nothing"))
            let onQueueForLoad = await withCheckedContinuation { continuation in
                session.load(endpoint) { _ in continuation.resume(returning: OperationQueue.current === queue) }
            }
            let onQueueForDataTask = await withCheckedContinuation { continuation in
                session.dataTask(endpoint: endpoint) { _ in
                    continuation.resume(returning: OperationQueue.current === queue)
                }.resume()
            }
            // A plain data task of the same session does call back on it.
            let onQueueForPlainTask = await withCheckedContinuation { continuation in
                session.dataTask(with: endpoint.request) { _, _, _ in
                    continuation.resume(returning: OperationQueue.current === queue)
                }.resume()
            }
            #expect(onQueueForPlainTask)
            #expect(onQueueForLoad)
            #expect(onQueueForDataTask)
        }
    #endif
    #if canImport(FoundationNetworking) && canImport(Glibc)
        /// `timeOutInterval` is "the request's timeout in seconds", but FoundationNetworking truncates it to whole
        /// seconds and the send path passes it on as it is: a request with a 0.5 s timeout fails as `timedOut` at once
        /// (in a few milliseconds), before anything could answer; 1.5 s acts as 1 s. A server that never answers: a
        /// socket listening on 127.0.0.1 that never accepts (the connection completes in its backlog).
        @Test func aSubSecondTimeoutWaitsThatLong() async throws {
            let listener = try loopbackListener()  // never accepts a connection
            defer { close(listener.socket) }
            let url = try requireURL("http://127.0.0.1:\(listener.port)/slow")
            let start = ContinuousClock.now
            let error = try await #require(throws: HTTPTransportError.self) {
                try await URLSessionTransport.shared.load(Endpoint<()>(.get, url: url, timeOutInterval: 0.5))
            }
            let waited = ContinuousClock.now - start
            #expect(error.code == .timedOut)
            #expect(waited >= .milliseconds(400), "timed out after \(waited)")
        }
    #endif
}
