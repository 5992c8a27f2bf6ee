#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1
    import NIOHTTPCompression
    @_spi(TinyKit) import TinyHTTPTransport

    /// An `HTTPTransport` that sends with swift-server's AsyncHTTPClient: the client server-side Swift already
    /// uses, and on Linux a faster one than `URLSession` (connection pooling, HTTP/1.1 keep-alive, HTTP/2 over TLS).
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport.shared
    /// let (body, response) = try await transport.send(URLRequest(method: .get, url: url))
    /// ```
    ///
    /// It behaves like `URLSessionTransport` (the same behaviour suite runs against both):
    /// - Every response comes back as a response, whatever its status; failures without a response throw
    ///   `HTTPTransportError` with the same codes `URLSessionTransport` uses (the table is in the Getting Started
    ///   article).
    /// - Cancelling the task that awaits ``send(_:)`` cancels the request: its HTTP/1.1 connection is closed (an
    ///   HTTP/2 stream is reset).
    /// - Header names that are not HTTP tokens, header values with control characters, methods that are not HTTP
    ///   tokens, schemes other than `http` and `https` and ports over 65535 are refused before anything is sent.
    /// - User and password in the URL are sent as Basic authorization, unless the request sets `Authorization`.
    /// - The request's `timeoutInterval` (60 s unless you set it) is a deadline for the response head: waiting for a
    ///   connection, connecting, sending the request (every redirect included) and the server's thinking time; after
    ///   the head it bounds the wait between body bytes, as `URLSession`'s does. The client's read timeout, 90 s
    ///   between reads for ``sharedClient``, caps a longer `timeoutInterval`: configure a client with a longer one if
    ///   you need it.
    /// - A refused connection or an unknown host fails at once, as with `URLSession`, rather than being retried
    ///   until the deadline (AsyncHTTPClient's default).
    /// - Redirects are followed by the transport, unless you pass `followsRedirects: false`: up to 20, no cycles; a
    ///   `303`, or a `301`/`302` after `POST`, continues as `GET`; a `304` is returned, whatever its headers. A
    ///   redirect to another origin (scheme, host or port) goes without the request's `Origin` and the credentials
    ///   `HTTPRedaction.default` hides (`Authorization`, `Proxy-Authorization`, `Cookie`, `X-API-Key`…) or that read as
    ///   credentials by name (`Private-Token`), as on `URLSessionTransport`, and one to a port over 65535 fails
    ///   (`.other`). The response carries the final URL.
    /// - Gzip and deflate bodies are decompressed, as `URLSession` does (an empty body marked compressed is an empty
    ///   body). Known issues: a raw deflate body (no zlib header), which `URLSession` decodes, fails (`.other`); a
    ///   body marked `x-gzip` (gzip's old name) is not decoded.
    /// - The body is read into memory up to ``maximumResponseBodySize`` bytes, after decompression; a larger one
    ///   fails with the response head in the error instead of exhausting memory.
    /// - Known issue (AsyncHTTPClient): a status line under `100` (`HTTP/1.1 099`) followed by a body stops the process
    ///   in its state machine ("How can we receive a response body, if we haven't received a head").
    ///
    /// The failing at once and the decompression are settings of ``sharedClient`` (see
    /// `HTTPClient.Configuration.tinyKit`). A client you configure yourself does what its configuration says: start
    /// from `.tinyKit` to keep them, and its redirects `.disallow`: a client that follows redirects itself follows a
    /// `304` carrying `Location`, and traps in SwiftNIO on a redirect to a port over 65535. A `.disallow` client does
    /// not return redirects as responses (the transport follows them): pass `followsRedirects: false` for that.
    ///
    /// What it does not do, unlike `URLSession`: no cookie storage, no response cache, no proxy settings from the
    /// system, and no `httpBodyStream` (the request is refused: set `httpBody`). A request without `User-Agent` gets
    /// one of its own, but none gets `URLSession`'s other defaults, `Accept: */*` and, for a body, `Content-Type:
    /// application/x-www-form-urlencoded` (`Endpoint`'s JSON initialisers set the ones they need). `cachePolicy`,
    /// `httpShouldHandleCookies`, `httpShouldUsePipelining`, `mainDocumentURL`, `networkServiceType` and the
    /// `allows…NetworkAccess` flags have no effect.
    public struct AsyncHTTPClientTransport: HTTPTransport {
        /// A transport that sends with ``sharedClient``, for everyone who does not need another client.
        public static let shared = AsyncHTTPClientTransport()

        /// The process-wide client of ``shared`` and the default of
        /// ``init(client:maximumResponseBodySize:followsRedirects:)``: `HTTPClient.Configuration.tinyKit` on
        /// AsyncHTTPClient's default event loop group. It lives as long as the process: do not shut it down.
        public static let sharedClient = HTTPClient(configuration: .tinyKit)  // on `HTTPClient.defaultEventLoopGroup`

        /// The client that sends the requests. The transport never shuts it down: a client you passed stays yours.
        let client: HTTPClient
        /// The largest response body, in bytes, read into memory: 10 MiB unless you say otherwise. A negative value
        /// counts as `0`: only empty bodies are accepted; a value over 4 GiB - 1 (what a `ByteBuffer` holds) counts
        /// as 4 GiB - 1.
        public var maximumResponseBodySize: Int
        /// Whether the transport follows redirects, or returns them as responses.
        let followsRedirects: Bool

        /// Creates a transport that sends with `client`.
        ///
        /// - Parameters:
        ///   - client: ``sharedClient``, or a client you created and will shut down yourself
        ///     (`try await client.shutdown()`) after the last request.
        ///   - maximumResponseBodySize: The largest response body read into memory, in bytes (at most 4 GiB - 1).
        ///   - followsRedirects: Whether the transport follows redirects (the default), checking each target, or
        ///     returns them as responses. A `client` that follows redirects itself has followed them before.
        public init(
            client: HTTPClient = sharedClient, maximumResponseBodySize: Int = Self.defaultMaximumResponseBodySize,
            followsRedirects: Bool = true
        ) {
            self.client = client
            self.maximumResponseBodySize = maximumResponseBodySize
            self.followsRedirects = followsRedirects
        }

        /// Sends `request` and returns the response, whatever its status code.
        ///
        /// - Throws: `HTTPTransportError`: `.invalidRequest` for a request without URL, with a header name that is
        ///   not an HTTP token or a value with a control character, a method that is not an HTTP token, a scheme other
        ///   than `http` and `https`, a port over 65535, an `httpBodyStream`; `.cancelled` when the awaiting task was
        ///   cancelled; `.timedOut` when no response head came within the request's `timeoutInterval`, or no byte of
        ///   its body for that long; `.other` for a body over ``maximumResponseBodySize`` (the error carries the
        ///   response), more than 20 redirects, a redirect cycle or a redirect to a port over 65535; and the code of
        ///   its category for other failures of the client (the table is in the Getting Started article).
        public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let sent = try await sendDeferringResponse(request)
            return (sent.body, try sent.response())
        }

        /// ``send(_:)``, making the `HTTPURLResponse` only when `response` is called: an `Endpoint` that decodes an
        /// accepted JSON body needs only the status and `Content-Type`, and Foundation's `HTTPURLResponse.init`
        /// canonicalises every header name (about 13,000 instructions a field on Linux). Making it is a pure function
        /// of the response head, so it is safe to defer; FoundationNetworking's initialiser never fails.
        public func sendDeferringResponse(_ request: URLRequest) async throws
            -> (body: Data, status: Int, contentType: String?, response: @Sendable () throws -> HTTPURLResponse)
        {
            let limit = Self.readLimit(maximumResponseBodySize)
            let timeout = Self.timeout(of: request)
            do {
                // Its errors carry `request`: `validate()` and `refuse` set it.
                let outgoing = try Self.clientRequest(for: request)
                // AsyncHTTPClient learns of a cancellation asynchronously: do not open a connection for a cancelled task.
                if Task.isCancelled { throw HTTPTransportError(.cancelled, request: request) }
                // The response head must come within `timeout`, redirects included; no timeout, no deadline.
                let (response, redirected) = try await execute(
                    outgoing, deadline: timeout.map { .now() + $0 } ?? .distantFuture, request: request)
                let head = { @Sendable () throws -> HTTPURLResponse in
                    try Self.httpURLResponse(for: response, request: request, redirected: redirected)
                }
                do {
                    let body = try await Self.collect(
                        response.body, upTo: limit, idle: timeout, on: client.eventLoopGroup.any())
                    // Repeated fields joined as `httpURLResponse` joins them, but each with any whitespace after it:
                    // what reads it (`JSONDecoder.isJSON`) ignores that whitespace.
                    let types = response.headers["Content-Type"]
                    let contentType = types.isEmpty ? nil : types.joined(separator: ", ")
                    return (
                        Data(buffer: body, byteTransferStrategy: .noCopy), Int(response.status.code), contentType, head
                    )
                } catch is NIOTooManyBytesError {
                    let message = "the response body is larger than maximumResponseBodySize, \(limit) bytes"
                    throw HTTPTransportError(.other, request: request, response: try head(), message: message)
                } catch is IdleBody {
                    let message =
                        "no byte of the body came for \(request.timeoutInterval) s (the request's timeoutInterval)"
                    throw HTTPTransportError(.timedOut, request: request, response: try head(), message: message)
                } catch {
                    // A failure in the body (the connection closed, a cancellation) keeps the head, as URLSession's do.
                    var failure = Self.transportError(for: error, request: request)
                    failure.response = try failure.response ?? head()
                    throw failure
                }
            } catch {
                throw Self.transportError(for: error, request: request)
            }
        }

        /// Sends `outgoing` and, unless `followsRedirects` is off, follows its redirects as `URLSession` does: a
        /// `301`, `302`, `303`, `307` or `308` with a `Location` to an `http` or `https` URL; at most 20, no cycles;
        /// after a `303` (but for `HEAD`), or a `301`/`302` after `POST`, as `GET` without body; to another origin
        /// without `Origin` and credentials (`HTTPRedaction.redirect(from:to:drops:)`). Each target is checked as a
        /// request's URL is: AsyncHTTPClient's own following traps on a port over 65535 and follows a `304`.
        ///
        /// - Returns: The last response, and whether it came after a redirect.
        private func execute(
            _ first: HTTPClientRequest, deadline: NIODeadline, request: URLRequest
        ) async throws -> (HTTPClientResponse, redirected: Bool) {
            var outgoing = first
            // Requests, not URLs: a `POST` answered `303` to its own URL continues as a `GET` of it (Post/Redirect/Get).
            // Made at the first redirect: most responses are none.
            var visited: Set<String> = []
            while true {
                let response = try await client.execute(outgoing, deadline: deadline)
                let status = response.status
                guard followsRedirects, [301, 302, 303, 307, 308].contains(status.code),
                    let location = response.headers.first(name: "Location"), let from = URL(string: outgoing.url),
                    // Without the whitespace after it, as the response's fields have it (RFC 9110 §5.5).
                    let to = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: from)?.absoluteURL,
                    ["http", "https"].contains(to.scheme?.lowercased()), to.host?.isEmpty == false
                else { return (response, !visited.isEmpty) }
                if visited.isEmpty { visited.insert("\(first.method) \(first.url)") }
                guard visited.count <= 20 else { throw HTTPClientError.redirectLimitReached }
                if let problem = Self.portProblem(of: to) {
                    throw HTTPTransportError(.other, request: request, message: "a redirect was refused: \(problem)")
                }
                let method = outgoing.method
                outgoing.url = to.absoluteString
                if status == .seeOther ? method != .HEAD : method == .POST && [301, 302].contains(status.code) {
                    (outgoing.method, outgoing.body) = (.GET, nil)
                    for name in ["Content-Length", "Content-Type"] { outgoing.headers.remove(name: name) }
                }
                for name in Set(outgoing.headers.map(\.name))
                where HTTPRedaction.redirect(from: from, to: to, drops: name) {
                    outgoing.headers.remove(name: name)
                }
                let next = "\(outgoing.method) \(outgoing.url)"
                guard visited.insert(next).inserted else { throw HTTPClientError.redirectCycleDetected }
            }
        }

        /// The largest body read for a `maximumResponseBodySize` of `size`: at least 0, at most 4 GiB - 1 (a
        /// `ByteBuffer` traps beyond).
        static func readLimit(_ size: Int) -> Int { max(0, min(size, Int(exactly: UInt32.max) ?? .max)) }

        /// No byte of a response body came for the request's `timeoutInterval`.
        struct IdleBody: Error {}

        /// Reads `body`, up to `limit` bytes, failing with `IdleBody` when no bytes come for `idle` (as URLSession's
        /// `timeoutInterval` bounds the wait between packets): the client's read timeout alone is the same for every
        /// request, and AsyncHTTPClient's deadline ends with the response head.
        ///
        /// A task of its own reads the body, started at once on this thread (`Task.immediate`): a body that is there
        /// already is read before the call goes on, without a timer or a thread hop. Otherwise a timer on `loop`
        /// cancels the reader once the body has been idle for `idle`, rescheduling itself while bytes keep coming. (A
        /// task group with a sleeping watchdog task cost about a quarter of the small-request throughput.)
        static func collect(
            _ body: HTTPClientResponse.Body, upTo limit: Int, idle: TimeAmount?, on loop: any EventLoop
        ) async throws -> ByteBuffer {
            // When the last bytes came, whether the body is over, and the timer.
            let watch = Locked((lastRead: NIODeadline.now(), finished: false, timer: Scheduled<Void>?.none))
            @Sendable func read() async throws -> ByteBuffer {
                defer { watch.withLock { $0.finished = true } }
                // By hand, not `body.map { … }.collect(upTo:)`: the generic sequences cost over 10,000 instructions
                // a request (metadata lookups and task allocations), measured with callgrind.
                var collected = ByteBuffer()
                do {
                    for try await var chunk in body {
                        watch.withLock { $0.lastRead = .now() }
                        guard collected.readableBytes + chunk.readableBytes <= limit else {
                            throw NIOTooManyBytesError(maxBytes: limit)
                        }
                        collected.writeBuffer(&chunk)
                    }
                } catch let error as NIOHTTPDecompression.ExtraDecompressionError
                    where error == .truncatedData && collected.readableBytes == 0
                {
                    // swift-nio-extras' decoder refuses an empty body marked compressed (a `HEAD`'s, a `304`'s, an
                    // empty chunked `200`'s), which URLSession returns as empty.
                }
                return collected
            }
            // Not `body.collect(upTo:)`, which checks a compressed body's `Content-Length` against the limit.
            guard let idle else { return try await read() }
            let reader: Task<ByteBuffer, any Error>
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                reader = Task.immediate(operation: read)
            } else {
                reader = Task(operation: read)
            }
            @Sendable func check() {
                watch.withLock { watch in
                    guard !watch.finished else { return }
                    guard watch.lastRead + idle > .now() else { return reader.cancel() }
                    watch.timer = loop.scheduleTask(deadline: watch.lastRead + idle, check)
                }
            }
            check()
            defer { watch.withLock { $0.timer?.cancel() } }
            do {
                return try await withTaskCancellationHandler {
                    try await reader.value
                } onCancel: {
                    reader.cancel()
                }
            } catch {
                // Cancelled, and not through the caller's task: by the timer.
                throw reader.isCancelled && !Task.isCancelled ? IdleBody() : error
            }
        }

        /// What is wrong with the port of `url`, `nil` when nothing is.
        static func portProblem(of url: URL) -> String? {
            // SwiftNIO traps on a port an IP address cannot have, and cuts a host name's to 16 bits.
            if let port = url.port { return (0...65_535).contains(port) ? nil : "the port \(port) is not a TCP port" }
            // A port too large for an `Int` parses as none, which AsyncHTTPClient reads as the scheme's default port.
            guard url.absoluteString.utf8.lazy.filter({ $0 == UInt8(ascii: ":") }).count > 1,
                let range = URLComponents(url: url, resolvingAgainstBaseURL: true)?.rangeOfPort, !range.isEmpty
            else { return nil }
            return "the port is not a TCP port"
        }

        /// The AsyncHTTPClient request for `request`, after the checks `URLSessionTransport` makes too.
        static func clientRequest(for request: URLRequest) throws(HTTPTransportError) -> HTTPClientRequest {
            func refuse(_ message: String) -> HTTPTransportError {
                HTTPTransportError(.invalidRequest, request: request, message: message)
            }
            try request.validate()
            guard let url = request.url else { throw refuse("the request has no URL") }
            if let problem = portProblem(of: url) { throw refuse(problem) }
            // Like URLSession: no `unix:` sockets, no other schemes AsyncHTTPClient would try.
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw refuse("AsyncHTTPClientTransport sends http and https URLs only")
            }
            if request.httpBodyStream != nil {
                throw refuse("AsyncHTTPClientTransport does not send an httpBodyStream: set httpBody")
            }
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET")
            // Validated above: no names SwiftNIO traps on, no values AsyncHTTPClient's own error would quote.
            for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
            // Like URLSession: credentials in the URL become Basic authorization, unless the request has its own.
            // Decoded, both: `URL.password` is percent-encoded, and a password with `@` or `:` must be.
            if let user = url.user(percentEncoded: false), !outgoing.headers.contains(name: "Authorization") {
                let password = url.password(percentEncoded: false) ?? url.password ?? ""  // encoded if not UTF-8
                let credentials = Data("\(user):\(password)".utf8).base64EncodedString()
                outgoing.headers.add(name: "Authorization", value: "Basic \(credentials)")
            }
            // Some APIs refuse requests without `User-Agent`; `URLSession` always sends one, AsyncHTTPClient does not.
            if !outgoing.headers.contains(name: "User-Agent") {
                outgoing.headers.add(name: "User-Agent", value: "TinyKit AsyncHTTPClientTransport")
            }
            // Like URLSession: a `HEAD`'s body is not sent (RFC 9110 §9.3.2; a `GET`'s, `validate()` refuses).
            if let body = request.httpBody, outgoing.method != .HEAD {
                // A ByteBuffer holds at most 4 GiB - 1 and traps beyond.
                guard body.count <= UInt32.max else { throw refuse("the httpBody is larger than 4 GiB - 1 bytes") }
                outgoing.body = .bytes(ByteBuffer(data: body))
            }
            return outgoing
        }

        /// The request's `timeoutInterval`, or `nil` for a value that is not a positive number of seconds.
        static func timeout(of request: URLRequest) -> TimeAmount? {
            let seconds = request.timeoutInterval
            guard seconds > 0, seconds < Double(Int64.max / 1_000_000_000) else { return nil }
            return .nanoseconds(Int64(seconds * 1_000_000_000))
        }

        /// The Foundation form of a response head. Repeated header fields, whatever the case of their names, are
        /// joined with `", "` in the order they came, under the first one's spelling, as Apple's URLSession does
        /// (FoundationNetworking joins only fields spelled alike); repeated `Set-Cookie` fields too, which `HTTPCookie.cookies(withResponseHeaderFields:for:)` splits back into one
        /// cookie each.
        static func httpURLResponse(
            for response: HTTPClientResponse, request: URLRequest, redirected: Bool = false
        ) throws(HTTPTransportError) -> HTTPURLResponse {
            // A response has a handful of fields: comparing names pairwise (ASCII, case-insensitively, in place) is
            // cheaper than lower-casing each one into a dictionary of spellings.
            var fields = [String: String](minimumCapacity: response.headers.count)
            for (name, var value) in response.headers {
                // RFC 9110 §5.5: whitespace after a value is not part of it (SwiftNIO drops only the one before).
                while value.utf8.last == 0x20 || value.utf8.last == 0x09 { value.removeLast() }
                if let first = fields.keys.first(where: { Self.sameFieldName($0, name) }) {
                    fields[first, default: ""] += ", " + value
                } else {
                    fields[name] = value
                }
            }
            let version = response.version == .http1_1 ? "HTTP/1.1" : response.version.description  // HTTP/major.minor
            guard
                // Without a redirect the response's URL is the request's: skip parsing it again.
                let url = redirected || response.history.count > 1 ? response.url : request.url,
                let head = HTTPURLResponse(
                    url: url, statusCode: Int(response.status.code), httpVersion: version, headerFields: fields)
            else {
                throw HTTPTransportError(
                    .other, request: request, message: "the response head \(response.status) could not be read")
            }
            return head
        }

        /// Whether two field names are the same name, HTTP field names being case-insensitive ASCII tokens.
        static func sameFieldName(_ a: String, _ b: String) -> Bool {
            a.utf8.count == b.utf8.count
                && zip(a.utf8, b.utf8).allSatisfy { x, y in
                    x == y || (x | 0x20 == y | 0x20 && (0x61...0x7A).contains(x | 0x20))  // a letter in either case
                }
        }
    }
    extension HTTPClient.Configuration {
        /// The configuration of ``AsyncHTTPClientTransport/sharedClient``: AsyncHTTPClient's
        /// `singletonConfiguration`, set to behave as `URLSession` does where a user would notice.
        ///
        /// - Redirects: not followed by the client, so that ``AsyncHTTPClientTransport`` follows them itself and checks
        ///   each target (AsyncHTTPClient's own following traps on a port over 65535).
        /// - Decompression: gzip and deflate. The transport's ``AsyncHTTPClientTransport/maximumResponseBodySize``
        ///   bounds the decompressed body, and a body that has inflated to more than 200 times the compressed bytes
        ///   received so far fails at once (`.other`), so that no single network read can inflate far past the limit
        ///   before it is counted. The ratio is checked at each read: a start far more compressible than the whole
        ///   (a long run of padding in the first packet) can fail a body whose overall ratio is lower. JSON compresses 5 to 20 times; `HTTPClient.shared`'s limit of 25 would
        ///   refuse some real bodies, a decompression bomb inflates about 1,000 times.
        /// - Timeouts: 90 s to connect, 90 s between reads. The read timeout runs from when the request was sent, so
        ///   it also caps a request's longer `timeoutInterval` (which the transport applies between body bytes too).
        /// - Connection establishment is not retried, and Network.framework (Apple platforms) does not wait for
        ///   connectivity: a refused connection or an unknown host fails the request at once, instead of when its
        ///   deadline passes. The trade-off is AsyncHTTPClient's: one failed attempt fails every request waiting for a
        ///   connection to that host.
        public static var tinyKit: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow  // the transport follows them, checked
            configuration.decompression = .enabled(limit: .ratio(200))  // 200 times the compressed bytes received
            configuration.timeout = .init(connect: .seconds(90), read: .seconds(90))
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.networkFrameworkWaitForConnectivity = false
            return configuration
        }
    }
#else
    /// Not built: the `AsyncHTTPClient` trait of TinyKit is off, so AsyncHTTPClient was not resolved.
    ///
    /// Enable it where you depend on TinyKit:
    /// `.package(url: "https://github.com/OWNER/tinykit", from: "1.0.0", traits: ["AsyncHTTPClient"])`.
    @available(
        *, unavailable,
        message: "enable TinyKit's AsyncHTTPClient trait: .package(url: ..., from: ..., traits: [\"AsyncHTTPClient\"])"
    )
    public struct AsyncHTTPClientTransport {}
#endif
