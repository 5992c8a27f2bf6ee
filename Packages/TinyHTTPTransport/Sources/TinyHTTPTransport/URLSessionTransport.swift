import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live ``HTTPTransport``: sends requests with a `URLSession` it owns, on Linux and Apple platforms alike.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let (body, response) = try await transport.send(URLRequest(method: .get, url: url))
/// ```
///
/// Use ``shared`` (or one instance per configuration) as the default live transport: each instance owns one
/// `URLSession`, which it invalidates when the transport goes away.
///
/// What it adds to a bare `URLSession`:
/// - Every response comes back as a response, whatever its status; failures without a response throw
///   ``HTTPTransportError`` with a ``HTTPTransportError/Code`` you can act on, the request and the `URLError`.
/// - Cancelling the task that awaits ``send(_:)`` cancels the request (``HTTPTransportError/Code/cancelled``).
/// - A connection the server closes before any response is ``HTTPTransportError/Code/cannotConnect`` on Linux too,
///   where FoundationNetworking reports it as `badServerResponse` ("Empty reply from server").
/// - Header names that are not HTTP tokens, header values with control characters, and methods that are not HTTP
///   tokens are refused before anything is sent
///   (see `URLRequest.validateHeaders()` and `URLRequest.validateMethod()`).
/// - A `401` carrying `WWW-Authenticate` arrives promptly as a `401` response on Linux too. FoundationNetworking
///   (swift-corelibs-foundation issue 5456) never completes such a request when it has no credential, not even
///   after the timeout. The transport's session delegate cancels HTTP authentication challenges there and returns
///   the challenge's `401` response with its status and headers; its body is empty, because FoundationNetworking
///   does not deliver it. Server-trust (TLS) challenges get the default handling: certificate validation is never
///   turned off. On Apple platforms every challenge gets the default handling, so the `401` arrives with its body.
///   Credentials from `URLCredentialStorage` are not used on Linux: send an `Authorization` header instead.
///
/// To stub responses in tests, give it a configuration with your `URLProtocol` subclass:
/// `configuration.protocolClasses = [MyStub.self]` (on Linux, `URLProtocol.registerClass` has no effect).
public final class URLSessionTransport: HTTPTransport {
    /// A transport with the `.default` session configuration, shared by everyone who does not need another one.
    public static let shared = URLSessionTransport()

    private let session: URLSession
    /// The delegate of a session this transport created (and invalidates), `nil` for a session it was given.
    let challenges: AuthenticationChallengeHandler?

    /// Creates a transport with its own `URLSession` built from `configuration`: the recommended live transport.
    ///
    /// - Parameter configuration: Timeouts, headers, caching, `protocolClasses` for stubs, …
    ///   The transport takes a copy: changing `configuration` later has no effect on it.
    public init(configuration: URLSessionConfiguration = .default) {
        let challenges = AuthenticationChallengeHandler()
        self.challenges = challenges
        self.session = URLSession(configuration: configuration, delegate: challenges, delegateQueue: nil)
    }

    /// Creates a transport that sends with `session`, which stays yours: the transport does not invalidate it.
    ///
    /// The session keeps its own delegate, so on Linux a `401` carrying `WWW-Authenticate` completes only when
    /// that delegate cancels HTTP authentication challenges (`.cancelAuthenticationChallenge`); the transport
    /// then returns the `401` response. Without such a delegate, the request never completes there
    /// (swift-corelibs-foundation issue 5456): prefer ``init(configuration:)``.
    public init(session: URLSession) {
        self.challenges = nil
        self.session = session
    }

    deinit {
        // A session retains its delegate until it is invalidated. Requests in flight keep `self` alive, so none
        // is left here; a session that was given to us stays usable.
        if challenges != nil { session.finishTasksAndInvalidate() }
    }

    /// The configuration of the transport's session (a copy).
    public var configuration: URLSessionConfiguration { session.configuration }

    /// Sends `request` and returns the response, whatever its status code.
    ///
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/invalidRequest`` for a header that
    ///   `validateHeaders()` refuses, a method that is not an HTTP token or a request without URL,
    ///   ``HTTPTransportError/Code/cancelled`` when the awaiting task was
    ///   cancelled, and the code mapped from the `URLError` for other failures
    ///   (see ``HTTPTransportError/init(mapping:request:)``).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await DataTaskRunner.send(request, on: session, challenges: challenges)
    }
}

extension URLSession: HTTPTransport {
    /// Sends `request` with this session and returns the response, whatever its status code.
    ///
    /// Behaves like ``URLSessionTransport/send(_:)`` (header validation, task cancellation, error mapping),
    /// with one difference on Linux: this session has no TinyKit delegate, so a `401` response carrying
    /// `WWW-Authenticate` **never completes** there (swift-corelibs-foundation issue 5456), unless the session's
    /// own delegate cancels HTTP authentication challenges (the `401` response is then returned). Prefer ``URLSessionTransport`` as the live transport.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await DataTaskRunner.send(request, on: self, challenges: nil)
    }
}
