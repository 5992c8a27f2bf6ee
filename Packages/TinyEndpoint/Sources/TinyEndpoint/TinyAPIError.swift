import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// The error ``TinyAPIClient`` throws (tinyAPI's error), with the typed error behind it.
///
/// tinyAPI's spellings work: `TinyAPIError.invalidURL`, `.noData`, `.decodingError(_:)`, `.httpError(_:)`,
/// `.networkError(_:)`, `catch let error as TinyAPIError`, `Result<[User], TinyAPIError>`. Switch over ``kind`` to
/// tell the cases apart, or match a value directly:
///
/// ```swift
/// do {
///     _ = try await client.request(UserEndpoint.list, as: [User].self)
/// } catch let error as TinyAPIError {
///     switch error.kind {
///     case .httpError(401): signIn()
///     case .httpError(let status): print("HTTP \(status)", error.underlyingError ?? "")
///     default: print(error.localizedDescription)
///     }
/// }
/// ```
///
/// Two errors are equal when their kinds are (so states holding them compare easily in tests); the evidence —
/// response, body, coding path, the original `URLError` — stays in ``underlyingError``, typically an
/// `HTTPTransportError` or an ``EndpointError``.
public struct TinyAPIError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The base URL, path or query does not form a URL; nothing was sent.
        case invalidURL
        /// The response had no body, but the result type needs one.
        case noData
        /// The body could not be decoded; the message names the type and the coding path, or the `Content-Type` that
        /// is not JSON.
        case decodingError(String)
        /// The request body could not be encoded; nothing was sent.
        case encodingError(String)
        /// The server answered with this status code, outside 200–299.
        case httpError(Int)
        /// No response: could not connect, timed out, or another transport failure.
        case networkError(String)
        /// The request was cancelled (the awaiting task was cancelled).
        case cancelled
    }

    /// What went wrong.
    public var kind: Kind
    /// The typed error this one was made from, if any: an `HTTPTransportError` (with the request, response and
    /// body), an ``EndpointError`` (with the type and coding path), or the transport's own error.
    public var underlyingError: (any Error)?

    /// Creates an error of a kind, optionally keeping the error behind it.
    public init(_ kind: Kind, underlyingError: (any Error)? = nil) {
        self.kind = kind
        self.underlyingError = underlyingError
    }

    /// Classifies any error as a `TinyAPIError`, keeping it as ``underlyingError`` (a `TinyAPIError` stays itself).
    public init(_ error: any Error) {
        self = error as? TinyAPIError ?? TinyAPIError(Self.kind(of: error), underlyingError: error)
    }

    /// What an error that is not a `TinyAPIError` is, for `init(_:)`.
    private static func kind(of error: any Error) -> Kind {
        switch error {
        case let error as HTTPTransportError:
            switch error.code {
            case .unacceptableStatus(let status): .httpError(status)
            case .cancelled: .cancelled
            // The system's sentence, as tinyAPI's (a `URLError`'s), or the explanation of an error that has one (a
            // `MockError`), else what happened: the request stays in `description`.
            default: .networkError(userMessage(of: error))
            }
        case let error as EndpointError:
            switch error {
            case .noData: .noData
            // Without the body, which would reach the screen (and logs) with the message.
            case .decodingFailed, .unexpectedBody, .unexpectedContentType: .decodingError(error.summary)
            case .encodingFailed: .encodingError(error.description)
            case .invalidURL: .invalidURL
            case .notHTTPResponse: .networkError(error.description)
            }
        // Raw, from a parse or client of your own: classified as they would be inside an `EndpointError`.
        case is DecodingError: .decodingError(coderMessage(of: error))
        case is EncodingError: .encodingError(coderMessage(of: error))
        // A transport that does not map its errors (a raw `URLError`, a `CancellationError`): classify it as the
        // live transport would, so a cancellation stays `.cancelled`.
        case _ where HTTPTransportError(mapping: error, request: nil).code == .cancelled: .cancelled
        default: .networkError(error.localizedDescription)
        }
    }

    /// A network failure's message for users: the system's sentence (a `URLError`'s, also as an `NSError`), or the
    /// explanation of an error that has one (a `MockError`), else what happened. Never a nested `HTTPTransportError`'s
    /// description, which names a URL and may hold a body (a token endpoint's).
    private static func userMessage(of error: HTTPTransportError) -> String {
        let underlying = error.underlyingError
        let system = underlying.map { $0 as NSError }.flatMap {
            $0.domain == NSURLErrorDomain ? $0.userInfo[NSLocalizedDescriptionKey] as? String : nil
        }
        let explained = underlying is HTTPTransportError ? nil : (underlying as? any LocalizedError)?.errorDescription
        return system ?? explained ?? error.message ?? "the request \(error.code)"
    }

    /// A coder's error as `at a.b[2]: its message`.
    private static func coderMessage(of error: any Error) -> String {
        "at \(EndpointError.codingPath(of: error)): \(EndpointError.context(of: error).message)"
    }

    /// A short message for users, as tinyAPI words it; an invalid URL names the text that is not one.
    public var errorDescription: String? {
        switch kind {
        case .invalidURL: underlyingError.map { "Invalid URL: \($0)" } ?? "Invalid URL"
        case .noData: "No data received"
        case .decodingError(let message): "Decoding failed: \(message)"
        case .encodingError(let message): "Encoding failed: \(message)"
        case .httpError(let status): "HTTP Error: \(status)"
        case .networkError(let message): "Network Error: \(message)"
        case .cancelled: "Cancelled"
        }
    }

    /// The message and, for developers, the error behind it (with status, body, coding path…).
    public var description: String {
        let message = errorDescription ?? "TinyAPIError"
        guard let underlyingError else { return message }
        let detail = HTTPTransportError.summary(of: underlyingError)  // a raw `URLError` without its URL
        return message.contains(detail) ? message : "\(message) [\(detail)]"
    }

    /// Errors are equal when their kinds are; ``underlyingError`` is not compared.
    public static func == (lhs: TinyAPIError, rhs: TinyAPIError) -> Bool { lhs.kind == rhs.kind }
}
