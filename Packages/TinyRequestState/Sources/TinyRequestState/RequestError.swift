import Foundation

/// Why a request failed: a message to show, and the typed error behind it when there is one.
///
/// The message is what `Equatable` compares, so states holding failures stay easy to assert on in tests; the typed
/// error stays reachable through ``underlyingError`` for decisions a message cannot
/// support (retry, sign-in, alerts).
///
/// ```swift
/// let failure = RequestError(URLError(.notConnectedToInternet), message: "You are offline")
/// failure.message                                  // "You are offline"
/// (failure.underlyingError as? URLError)?.code // .notConnectedToInternet
/// ```
public struct RequestError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError,
    ExpressibleByStringLiteral
{
    /// A human-readable description of the failure.
    public var message: String
    /// The error the failure came from, if it was created from one.
    public var underlyingError: (any Error)?

    /// Creates a failure from a message.
    public init(_ message: String) {
        self.message = message
    }

    /// Creates a failure from an error, keeping it, with its `localizedDescription` (or a given message) as text.
    ///
    /// A `RequestError` passed in is not wrapped again: its underlying error is kept (and its message, unless
    /// `message` is given).
    public init(_ error: any Error, message: String? = nil) {
        let wrapped = error as? RequestError
        self.message = message ?? wrapped?.message ?? error.localizedDescription
        self.underlyingError = wrapped == nil ? error : wrapped?.underlyingError
    }

    /// Creates a failure from a string literal: `.failure("Network error")`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The message.
    public var description: String { message }

    /// The message, also as `localizedDescription` (rather than Foundation's "The operation could not be completed").
    public var errorDescription: String? { message }

    /// Two failures are equal when their messages are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.message == rhs.message }

    /// Hashes the message (the part equality compares).
    public func hash(into hasher: inout Hasher) { hasher.combine(message) }
}
