import Foundation

/// The live ``HTTPTransport``: sends requests with a `URLSession` it owns, on Linux and Apple platforms alike.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let (body, response) = try await transport.send(URLRequest(method: .get, url: url))
/// ```
///
/// Use ``shared`` (or one instance per configuration) as the default live transport: each instance owns one
/// long-lived `URLSession`, which it invalidates when the transport goes away.
///
/// What it adds to a bare `URLSession`, the same on every entry (it sends through `URLSession`'s
/// `URLSession.send(_:)`, as `URLSession.shared.load(endpoint)` and `dataTask(endpoint:)` do):
/// - Every response comes back as a response, whatever its status; failures without a response throw
///   ``HTTPTransportError`` with a ``HTTPTransportError/Code`` you can act on, the request and the `URLError`.
/// - Cancelling the task that awaits ``send(_:)`` cancels the request (``HTTPTransportError/Code/cancelled``).
/// - A connection the server closes before the response is complete is ``HTTPTransportError/Code/cannotConnect``
///   (retried by ``RetryPolicy``) on Linux too, where FoundationNetworking reports it as `badServerResponse` ("Empty
///   reply from server") before any response, and as `URLError` `-1` ("transfer closed with n bytes remaining to
///   read") in the body. A failure after the response head carries it as ``HTTPTransportError/response``.
/// - A response body over ``maximumResponseBodySize`` (10 MiB by default, as `AsyncHTTPClientTransport`'s) fails
///   with ``HTTPTransportError/Code/other`` and the response, as soon as its `Content-Length` or the bytes received
///   so far say so: the body is never held whole. (A session given to ``init(session:maximumResponseBodySize:)`` with
///   a delegate of its own, or without one on Apple platforms, reads bodies whole, without the limit.)
/// - On Linux a `timeoutInterval` (and a configuration's `timeoutIntervalForRequest`) with a fraction of a second is
///   rounded up to whole seconds: libcurl counts whole seconds, and would time out a 0.5 s request at once. An
///   infinite one (of either sign) or NaN is 2^31 s (FoundationNetworking would stop the process), and so is one of 0
///   or less, which it would time out at once: no deadline, as on `AsyncHTTPClientTransport`. Set a request's
///   timeout with `timeoutInterval = …`: FoundationNetworking ignores a whole number of seconds given to
///   `URLRequest(url:cachePolicy:timeoutInterval:)` and applies the configuration's. An upper-case scheme
///   (`HTTP://`) is sent as the lower-case one.
/// - Requests that `URLRequest.validate()` refuses (no URL, a method or header name that is not an HTTP token, a
///   header value with a control character) fail before anything is sent, and so does every request when the
///   configuration's `httpAdditionalHeaders` hold a header it would refuse
///   (``HTTPTransportError/Code/invalidRequest``).
/// - On Linux, redirects go where they go on Apple platforms: a relative `Location` is resolved against the URL that
///   answered, a `HEAD` stays a `HEAD` after a `303`, and `Origin` and the credentials (`Authorization`, `Cookie`,
///   `X-API-Key`, the other headers `HTTPRedaction.default` hides, and those whose names hold `auth`, `token`, `key`,
///   `secret`, `session`, `password`, `credential` or `jwt` or end in `-api`, but `Idempotency-Key`) are not sent to
///   another origin (FoundationNetworking does otherwise; the session's delegate mends it); a `Location` that is not an
///   `http` or `https` URL with a host comes back as the response, not followed.
/// - A `401` carrying `WWW-Authenticate` arrives promptly as a `401` response on Linux too. FoundationNetworking
///   (swift-corelibs-foundation issue 5456) never completes such a request when it has no credential, not even
///   after the timeout. The session's delegate cancels HTTP authentication challenges there and the `401` response
///   is returned with its status, headers and body. (Through `URLSession`'s own entries, `load`, `send` and
///   `dataTask(endpoint:)`, which send with a completion handler, that `401`'s body is empty on Linux:
///   FoundationNetworking hands a cancelled task's handler no data. Use this transport where you read it.)
///   Server-trust (TLS) challenges get the default handling: certificate validation is never turned off. On Apple
///   platforms every challenge gets the default handling, so the `401` arrives with its body. Credentials from
///   `URLCredentialStorage` are not used on Linux: send an `Authorization` header instead.
///
/// Known issues (FoundationNetworking, Linux): a server that closes the connection in the middle of the response head,
/// or sends a trailer field after a chunked body, stops the process ("Transfer completed, but there's no response"),
/// whatever sends through `URLSession`. Where a hostile server is possible (a server process calling others), prefer
/// `AsyncHTTPClientTransport`. Some legal field lines fail the response (`Name:value` without a space, a value of
/// whitespace alone, a byte over 0x7F: code `other`, its message says so); fields repeated in another case
/// (`X-Tag` and `x-tag`) are not joined, and of `Set-Cookie` and `set-cookie` one is lost; of two different
/// `Content-Length`s the last frames the body. Known issue
/// (Linux): inside a completion handler of its session, `OperationQueue.current` is not the session's
/// `delegateQueue`.
///
/// To stub responses in tests, give it a configuration with your `URLProtocol` subclass:
/// `configuration.protocolClasses = [MyStub.self]` (on Linux, `URLProtocol.registerClass` has no effect).
public final class URLSessionTransport: HTTPTransport {
    /// A transport with the `.default` session configuration, shared by everyone who does not need another one.
    public static let shared = URLSessionTransport()

    /// The session requests are sent with.
    public let session: URLSession
    /// The largest response body, in bytes, read into memory; a negative value counts as `0`.
    public let maximumResponseBodySize: Int
    private let ownsSession: Bool

    /// Creates a transport with its own `URLSession` built from `configuration`: the recommended live transport.
    ///
    /// - Parameters:
    ///   - configuration: Timeouts, headers, caching, `protocolClasses` for stubs, …
    ///     The transport takes a copy: changing `configuration` later has no effect on it.
    ///   - maximumResponseBodySize: The largest response body read into memory, in bytes.
    public init(
        configuration: URLSessionConfiguration = .default,
        maximumResponseBodySize: Int = defaultMaximumResponseBodySize
    ) {
        session = SessionDelegate.session(configuration: configuration)
        self.maximumResponseBodySize = maximumResponseBodySize
        ownsSession = true
    }

    /// Creates a transport that sends with `session`, which stays yours: the transport does not invalidate it.
    ///
    /// A session with its own delegate keeps it: on Linux, a `401` carrying `WWW-Authenticate` then completes
    /// only when that delegate cancels HTTP authentication challenges. A session without a delegate is handled as
    /// in ``init(configuration:maximumResponseBodySize:)``, the size limit included on Linux.
    public init(session: URLSession, maximumResponseBodySize: Int = defaultMaximumResponseBodySize) {
        self.session = session
        self.maximumResponseBodySize = maximumResponseBodySize
        ownsSession = false
    }

    deinit {
        // A session retains its delegate until it is invalidated. Requests in flight keep `self` alive, so none
        // is left here; a session that was given to us stays usable.
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    /// Sends `request` and returns the response, whatever its status code.
    ///
    /// - Throws: ``HTTPTransportError``: ``HTTPTransportError/Code/invalidRequest`` for a request that
    ///   `URLRequest.validate()` refuses, ``HTTPTransportError/Code/cancelled`` when the awaiting task was
    ///   cancelled, ``HTTPTransportError/Code/other`` with the response for a body over
    ///   ``maximumResponseBodySize``, and the code mapped from the `URLError` for other failures
    ///   (see ``HTTPTransportError/init(mapping:request:)``).
    @inline(__always)
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await session.send(request, limit: max(0, maximumResponseBodySize))
    }
}
