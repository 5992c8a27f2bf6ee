import Foundation

/// Why a request failed: a message to show, and the typed error behind it when there is one.
///
/// The message is what `Equatable` compares, so states holding failures stay easy to assert on in tests; the typed
/// error stays reachable through ``underlyingError`` for decisions a message cannot support (retry, sign-in, alerts).
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// A human-readable description of the failure.
    public var message: String
    /// The error the failure came from, if it was created from one.
    public var underlyingError: (any Error)?

    /// Creates a failure from a message.
    public init(_ message: String) {
        self.message = message
    }

    /// Creates a failure from an error, keeping it, with its `localizedDescription` (or a given message) as text.
    public init(_ error: any Error, message: String? = nil) {
        self.message = message ?? error.localizedDescription
        self.underlyingError = error
    }

    /// Creates a failure from a string literal: `.failure("Network error")`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The message.
    public var description: String { message }

    /// Two failures are equal when their messages are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.message == rhs.message }
}
