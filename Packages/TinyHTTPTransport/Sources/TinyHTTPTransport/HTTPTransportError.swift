import Foundation

/// An HTTP exchange that failed, with the evidence: the request, the response and body when there were any, and
/// the underlying error.
///
/// Switch over ``code`` to tell the cases apart:
///
/// ```swift
/// do {
///     _ = try await transport.send(request)
/// } catch let error as HTTPTransportError where error.code == .timedOut {
///     // try again later
/// }
/// ```
public struct HTTPTransportError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong, in categories a caller can act on.
    public enum Code: Hashable, Sendable, CustomStringConvertible {
        /// The server could not be reached: refused, host not found, no network, or the connection was lost or
        /// closed before the response was complete.
        case cannotConnect
        /// No response within the request's timeout.
        case timedOut
        /// The task awaiting the request was cancelled (or the request was cancelled otherwise).
        case cancelled
        /// The server answered with a status code the caller does not accept.
        case unacceptableStatus(Int)
        /// The request cannot be sent as it is (a bad URL, a header value with CR or LF, …).
        case invalidRequest
        /// Any other failure of the underlying client.
        case other

        /// A short name of the category.
        public var description: String {
            switch self {
            case .cannotConnect: "could not connect"
            case .timedOut: "timed out"
            case .cancelled: "cancelled"
            case .unacceptableStatus(let status): "unacceptable status \(status)"
            case .invalidRequest: "invalid request"
            case .other: "failed"
            }
        }

        /// The category of a `URLError` code (the table in ``HTTPTransportError/init(mapping:request:)``).
        init(urlErrorCode: URLError.Code) { self = Self.categories[urlErrorCode] ?? .other }

        /// The `URLError` codes of a category other than `.other`.
        private static let categories: [URLError.Code: Self] = [
            .cannotConnectToHost: .cannotConnect, .cannotFindHost: .cannotConnect, .dnsLookupFailed: .cannotConnect,
            .networkConnectionLost: .cannotConnect, .notConnectedToInternet: .cannotConnect, .timedOut: .timedOut,
            .cancelled: .cancelled, .badURL: .invalidRequest, .unsupportedURL: .invalidRequest,
        ]
    }

    /// The category of the failure.
    public var code: Code
    /// The request that failed, when it was built.
    public var request: URLRequest?
    /// The response, when one arrived (always set for ``Code/unacceptableStatus(_:)``).
    public var response: HTTPURLResponse?
    /// The response body bytes, when a response arrived; `nil` when there was no response.
    public var body: Data?
    /// The error of the underlying client (for example a `URLError`), if any.
    public var underlyingError: (any Error)?
    /// A human-readable detail, for example which header value was refused.
    public var message: String?
    /// How many times the request was sent before this error: `1` unless a retry middleware sent it again and gave
    /// up on it (a failure or a status it retries, which persisted), or the authorization middleware sent it again
    /// with a newer credential. A response that ended the retries (a `404`
    /// after two `503`s) comes back as a response, which carries no count: the error made of it says `1`. With one
    /// retry middleware inside another, the sends of the inner one count when it failed.
    public var attempts: Int = 1

    /// Creates an error.
    public init(
        _ code: Code, request: URLRequest? = nil, response: HTTPURLResponse? = nil, body: Data? = nil,
        underlyingError: (any Error)? = nil, message: String? = nil
    ) {
        self.code = code
        self.request = request
        self.response = response
        self.body = body
        self.underlyingError = underlyingError
        self.message = message
    }

    /// Wraps any error of an HTTP client as an `HTTPTransportError`, keeping it as ``underlyingError``.
    ///
    /// - An `HTTPTransportError` is returned as it is (its request filled in when it had none).
    /// - `CancellationError` becomes ``Code/cancelled``.
    /// - A `URLError` (or an `NSError` of `NSURLErrorDomain`) gets the code of its category:
    ///
    ///   | URLError | code |
    ///   |---|---|
    ///   | `cannotConnectToHost`, `cannotFindHost`, `networkConnectionLost`, `notConnectedToInternet`, `dnsLookupFailed` | ``Code/cannotConnect`` |
    ///   | `timedOut` | ``Code/timedOut`` |
    ///   | `cancelled` | ``Code/cancelled`` |
    ///   | `badURL`, `unsupportedURL` | ``Code/invalidRequest`` |
    ///   | anything else | ``Code/other`` |
    ///
    ///   except `unsupportedURL` for an `http`/`https` request with a host: FoundationNetworking (libcurl) reports a
    ///   reply that is not HTTP that way, a fault of the server rather than of the request, so it becomes
    ///   ``Code/other``.
    /// - Anything else becomes ``Code/other``.
    public init(mapping error: any Error, request: URLRequest?) {
        if let error = error as? HTTPTransportError {
            self = error
            self.request = error.request ?? request
            return  // before `urlErrorCode(of:)`: bridging this error to `NSError` would build its description
        }
        let urlErrorCode = Self.urlErrorCode(of: error)
        if urlErrorCode == .unsupportedURL, request?.url?.isHTTPWithHost == true {
            self.init(.other, request: request, underlyingError: error, message: "the reply is not HTTP")
        } else {
            let category = urlErrorCode.map(Code.init(urlErrorCode:)) ?? .other
            self.init(error is CancellationError ? .cancelled : category, request: request, underlyingError: error)
        }
    }

    /// The response body decoded as JSON of type `E`, in one call: an API's error body, for example a `422` with
    /// `{"errors": …}`. The status, headers and raw bytes stay in ``response`` and ``body``.
    ///
    /// ```swift
    /// } catch let error as HTTPTransportError where error.code == .unacceptableStatus(422) {
    ///     let problems = try error.decodeBody(as: ValidationErrors.self)
    /// }
    /// ```
    ///
    /// - Throws: `DecodingError.valueNotFound` when there is no body to decode (no response, or an empty body),
    ///   otherwise the decoder's error.
    public func decodeBody<E: Decodable>(as type: E.Type = E.self, decoder: JSONDecoder = JSONDecoder()) throws -> E {
        guard let body, !body.isEmpty else {
            let reason = "the failure has no response body to decode as \(E.self)"
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: reason))
        }
        return try decoder.decode(type, from: body)
    }

    /// One line saying what happened: the category, the request's method and URL (and the URL that answered, after a
    /// redirect), the attempts, the status, the detail, a preview of the body and the underlying error, for example
    /// `HTTP request unacceptable status 404: GET https://api.example.com/users/7, body: {"error":"not found"}`.
    ///
    /// Secret query parameters and a URL's user name and password are redacted with
    /// ``HTTPRedaction/default``, and fragments left out; header values are never printed.
    public var description: String { description(redacting: .default) }

    /// ``description`` without the body's preview (also a nested error's), so `localizedDescription`, which apps put
    /// on screen (`.failure(error.localizedDescription)`, an alert), says what happened but never shows a response
    /// body: a `4xx` body can echo what the user sent, or hold a token. Read ``body`` or ``description`` for it.
    public var errorDescription: String? { description(redacting: .default, showingBody: false) }

    /// ``description``, with the secrets that `redaction` names redacted from the URL.
    public func description(redacting redaction: HTTPRedaction) -> String {
        description(redacting: redaction, showingBody: true)
    }

    /// ``description(redacting:)``, with the body's preview or without it (``errorDescription``).
    func description(redacting redaction: HTTPRedaction, showingBody: Bool) -> String {
        var text = "HTTP request \(code)"
        if let request {
            text += ": " + redaction.summary(of: request)
            // After a redirect, the status is another URL's. (An upper-case scheme is sent in lower case: no redirect.)
            let sent = { (url: URL?) in
                url.map { ($0.scheme ?? "").lowercased() + $0.absoluteString.dropFirst($0.scheme?.count ?? 0) }
            }
            if let answered = response?.url, sent(answered) != sent(request.url) {
                text += ", answered by \(redaction.redacted(url: answered))"
            }
        }
        if attempts > 1 { text += ", after \(attempts) attempts" }
        if let response, code != .unacceptableStatus(response.statusCode) { text += ", status \(response.statusCode)" }
        if let message { text += " (\(HTTPRedaction.oneLine(message)))" }
        if showingBody, let body, !body.isEmpty { text += ", body: \(HTTPRedaction.preview(of: body))" }
        if let underlyingError {
            text +=
                ", underlying error: \(Self.summary(of: underlyingError, redacting: redaction, showingBody: showingBody))"
        }
        return text
    }

    /// A short text for an underlying error: `URLError -1001 (the request timed out)` rather than the whole
    /// `NSError` dump, which holds the failing URL with its secrets; a nested `HTTPTransportError` with `redaction`.
    @_spi(TinyKit) public static func summary(
        of error: any Error, redacting redaction: HTTPRedaction = .default, showingBody: Bool = true
    ) -> String {
        if let nested = error as? HTTPTransportError {
            return nested.description(redacting: redaction, showingBody: showingBody)
        }
        // Another library's error by its `errorDescription` where it has one (an `EndpointError`'s holds no body, its
        // `description` a token endpoint's), on one line: its text may hold line breaks.
        guard let code = urlErrorCode(of: error) else {
            return HTTPRedaction.oneLine((error as? any LocalizedError)?.errorDescription ?? String(describing: error))
        }
        let reason = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String
        return "URLError \(code.rawValue)" + (reason.map { " (\(HTTPRedaction.oneLine($0)))" } ?? "")
    }

    /// The `URLError` code of `error`, when it is a `URLError` or an `NSError` of `NSURLErrorDomain` (the form
    /// FoundationNetworking reports on Linux).
    static func urlErrorCode(of error: any Error) -> URLError.Code? {
        // A `URLError` bridges to its `NSError`, of `NSURLErrorDomain`.
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : nil
    }
}

extension HTTPTransportError: CustomReflectable {
    /// What `dump(_:)`, debuggers and test failures show: ``code`` and ``description``, which redacts as `.default`
    /// does, never a header value (the stored request's `Authorization`, the response's `Set-Cookie`).
    public var customMirror: Mirror { Mirror(self, children: ["code": code, "description": description]) }
}
