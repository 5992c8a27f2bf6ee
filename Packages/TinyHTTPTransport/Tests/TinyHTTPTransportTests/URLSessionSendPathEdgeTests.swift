import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// The `URLSession` send path on Linux (`URLSession+Send.swift`, `SessionDelegate.swift`): the failure mapping on
/// each entry, what a failure after the response head keeps, the redirects FoundationNetworking follows for every
/// TinyKit session, the session configuration's headers and timeout, and the delegate queue.
@Suite(.timeLimit(.minutes(1))) struct URLSessionSendPathEdgeTests {
    #if canImport(Glibc) && canImport(FoundationNetworking)
        /// A `200` announcing 100 bytes of body, 8 of them sent before the connection closes.
        private static let cutBody = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\":1,"

        /// The mid-body close was fixed to be `cannotConnect` ("the connection closed before the response was
        /// complete", retried as a lost connection), but only where the finished task reports its response: the
        /// size-limited path of `URLSessionTransport`. FoundationNetworking hands a completion handler that failed no
        /// response (`completion(nil, nil, error)`), and the mapping asks `response != nil`: through `URLSession`'s
        /// own entries (`send`, `load`, and `dataTask(endpoint:)`, which use `makeDataTask`'s completion handler)
        /// the same failure stays `.other`, and `.retry()` over `URLSession.shared` gives up at once.
        @Test func aConnectionClosedMidBodyIsCannotConnectOnEveryEntry() async throws {
            let server = try ScriptedHTTPServer(reply: Self.cutBody)
            let request = URLRequest(url: try server.url("/items/1"))
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }

            let transportError = await #expect(throws: HTTPTransportError.self) {
                try await URLSessionTransport(configuration: .ephemeral).send(request)
            }
            let sendError = await #expect(throws: HTTPTransportError.self) { try await session.send(request) }
            // The callback entries' path: `dataTask(endpoint:)` and `load(_:onComplete:)` are this task, resumed.
            let callbackResult = await withCheckedContinuation { continuation in
                session.makeDataTask(for: request) { continuation.resume(returning: $0) }.resume()
            }
            let callbackError = try #require(throws: HTTPTransportError.self) { try callbackResult.get() }

            #expect(transportError?.code == .cannotConnect)
            #expect(sendError?.code == .cannotConnect)
            #expect(callbackError.code == .cannotConnect)
        }

        /// The other half of the same cause: a `badServerResponse` after the response head (here from a
        /// `URLProtocol`) is reported by the entries with a completion handler as "the server closed the connection
        /// before any response", `cannotConnect`, though the response had arrived; the transport says `.other`.
        @Test func badServerResponseAfterAResponseIsNotAConnectionClosedBeforeAnyResponse() async throws {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [StubProtocol.self]
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            var request = URLRequest(url: try #require(URL(string: "https://stub.example/items")))
            request.setValue("broken \(URLError.badServerResponse.rawValue)", forHTTPHeaderField: "X-Stub")

            let transportError = await #expect(throws: HTTPTransportError.self) {
                try await URLSessionTransport(configuration: configuration).send(request)
            }
            let sendError = await #expect(throws: HTTPTransportError.self) { try await session.send(request) }

            #expect(transportError?.code == .other)
            #expect(sendError?.code == .other)
            #expect(sendError?.message != "the server closed the connection before any response")
        }

        /// `HTTPTransportError.response` is "the response, when one arrived". A connection closed in the body (or a
        /// body that stalls past the timeout) comes after the head arrived, and the transport's own path has it in
        /// hand (`finish`'s `response`), but the error is made by `HTTPTransportError(mapping:request:)` alone: the
        /// status and headers of the response are lost. `AsyncHTTPClientTransport` keeps the head on a body timeout.
        @Test func aFailureAfterTheResponseHeadKeepsTheResponse() async throws {
            let server = try ScriptedHTTPServer(reply: Self.cutBody)
            let transport = URLSessionTransport(configuration: .ephemeral)

            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: try server.url("/items/1")))
            }

            #expect(error?.code == .cannotConnect)
            #expect(error?.response?.statusCode == 200)
        }

        /// A `Location` is a URI reference resolved against the request's URL (RFC 9110 10.2.2, RFC 3986 5.2), as
        /// Apple platforms and `AsyncHTTPClientTransport` resolve it. FoundationNetworking's `redirectRequest` keeps
        /// only the reference's path, made absolute with a leading `/`: `next` from `/dir/page` goes to `/next`, a
        /// query-only `?page=2` to `/?page=2`. Every TinyKit session on Linux follows redirects so.
        @Test(arguments: [("next", "/dir/next"), ("?page=2", "/dir/page?page=2"), ("./next?a=1", "/dir/next?a=1")])
        func aRelativeRedirectIsResolvedAgainstTheRequestsURL(location: String, resolved: String) async throws {
            let server = try ScriptedHTTPServer { head in
                let path = ScriptedHTTPServer.path(of: head)
                return path == "/dir/page"
                    ? ScriptedHTTPServer.response(302, headers: ["Location: \(location)"])
                    : ScriptedHTTPServer.response(200, body: path)
            }

            let (body, response) = try await URLSessionTransport(configuration: .ephemeral).send(
                URLRequest(url: try server.url("/dir/page")))

            #expect(response.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self) == resolved)
        }

        /// A redirect to another origin (here another port) must not carry the request's credentials: curl, the
        /// Fetch standard and `AsyncHTTPClientTransport` ("follows redirects as URLSession does: … to another origin
        /// without Authorization, Proxy-Authorization, Cookie and Origin") drop them. FoundationNetworking copies
        /// every header of the request onto the redirected one, and TinyKit's delegate has no
        /// `willPerformHTTPRedirection`: the bearer token and the cookie go to whatever the `Location` names.
        @Test func aRedirectToAnotherOriginDropsTheCredentials() async throws {
            let target = try ScriptedHTTPServer(reply: ScriptedHTTPServer.response(200, body: "landed"))
            let elsewhere = try target.url("/landing").absoluteString
            let origin = try ScriptedHTTPServer(
                reply: ScriptedHTTPServer.response(302, headers: ["Location: \(elsewhere)"]))
            var request = URLRequest(url: try origin.url("/start"))
            request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
            request.setValue("session=s3cr3t", forHTTPHeaderField: "Cookie")
            // An API key went along until the default redaction (the list of credentials) named it.
            request.setValue("s3cr3t", forHTTPHeaderField: "X-API-Key")

            let (_, response) = try await URLSessionTransport(configuration: .ephemeral).send(request)

            #expect(response.statusCode == 200)
            let landed = try #require(target.heads.first)
            #expect(!landed.contains("s3cr3t"), "\(landed)")
        }

        /// A `303` tells the client to retrieve the other resource: with `GET`, or `HEAD` for a `HEAD` (RFC 9110
        /// 15.4.4; `AsyncHTTPClientTransport`: "after a 303 (but for HEAD) … as GET"). FoundationNetworking turns
        /// every method into `GET` after a `303`, so a `HEAD` request comes back with the whole body of a `GET`.
        @Test func aHEADRedirectedBy303StaysAHEAD() async throws {
            let server = try ScriptedHTTPServer { head in
                ScriptedHTTPServer.path(of: head) == "/start"
                    ? ScriptedHTTPServer.response(303, headers: ["Location: /target"])
                    : ScriptedHTTPServer.response(200, body: "a body a HEAD never gets")
            }

            let (body, response) = try await URLSessionTransport(configuration: .ephemeral).send(
                URLRequest(method: .head, url: try server.url("/start")))

            #expect(response.statusCode == 200)
            #expect(server.requestLines == ["HEAD /start HTTP/1.1", "HEAD /target HTTP/1.1"])
            #expect(body.isEmpty)
        }

        /// `URLRequest.validate()` refuses a header value with CR or LF before anything is sent ("a line break would
        /// let a value start a new header line"), but the session configuration's `httpAdditionalHeaders`, which
        /// FoundationNetworking adds to every request, are never checked: a value with CRLF (a token read from a
        /// file with its line ending, a value built from input) goes on the wire as a header of its own.
        @Test func aConfigurationHeaderWithALineBreakIsRefusedBeforeSending() async throws {
            let server = try ScriptedHTTPServer(reply: ScriptedHTTPServer.response(200, body: "ok"))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["X-Token": "abc\r\nX-Injected: yes"]
            let transport = URLSessionTransport(configuration: configuration)

            let result = await Result { try await transport.send(URLRequest(url: try server.url("/items"))) }

            let error = try #require(throws: HTTPTransportError.self) { try result.get() }
            #expect(error.code == .invalidRequest)
            #expect(server.heads.isEmpty)
        }
    #endif

    #if canImport(FoundationNetworking)
        /// "An infinite or NaN one is 2^31 s (FoundationNetworking would stop the process)": the send path resets a
        /// timeout with a fraction or over 2^31 s, but `-infinity` is neither (it is whole, and below the bound), so
        /// it reaches FoundationNetworking's `Int(request.timeoutInterval) * 1000`, which traps. In a child process.
        @Test func aNegativeInfiniteTimeoutDoesNotStopTheProcess() async throws {
            var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/never")))
            request.timeoutInterval = -.infinity
            // In process: a trap stops the whole test run, loudly (exit tests misbehave under the sanitizers).
            let error = await #expect(throws: HTTPTransportError.self) {
                try await URLSessionTransport(configuration: .ephemeral).send(request)
            }
            #expect(error?.code == .cannotConnect)  // nothing listens on port 1
        }

        /// A completion handler of a session runs on the session's `delegateQueue` (and `load(_:onComplete:)`,
        /// `dataTask(endpoint:)` promise it): there `OperationQueue.current` is that queue. The queue of TinyKit's
        /// sessions on Linux (`SerialDelegateQueue`) runs its blocks on a `DispatchQueue` instead of as operations,
        /// so inside them `OperationQueue.current` is not the session's queue (nil): code that checks it, or adds
        /// follow-up work to `OperationQueue.current`, sees no queue.
        @Test func aCompletionHandlerOfATinyKitSessionRunsOnItsDelegateQueue() async throws {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [StubProtocol.self]
            let transport = URLSessionTransport(configuration: configuration)
            let session = transport.session
            let request = URLRequest(url: try #require(URL(string: "https://stub.example/queue")))

            let onItsQueue = await withCheckedContinuation { continuation in
                session.dataTask(with: request) { _, _, _ in
                    continuation.resume(returning: OperationQueue.current === session.delegateQueue)
                }.resume()
            }

            withKnownIssue("SerialDelegateQueue runs blocks outside OperationQueue: OperationQueue.current is not it") {
                #expect(onItsQueue)
            }
        }
    #endif
}
