import Foundation
import TinyEndpoint
import TinyHTTPTransport

/// Why a mock could not answer a request.
///
/// ``MockTransport`` throws these wrapped in an `HTTPTransportError` (as its `underlyingError`), because a
/// transport throws `HTTPTransportError`, and ``MockTinyAPIClient`` in a `TinyAPIError` around that; both show
/// this error's text in their descriptions, and ``init(_:)`` digs it out for tests. Its ``description`` names the
/// file looked for, the directory it looked in and the routes registered.
public enum MockError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No route matched `method` and `path`, and no mock file answered: `lookedFor` is the file name the request
    /// maps to (`nil` when it looked for no file), `directory` where it looked (`nil` when the mock has no
    /// files), `routes` the routes registered, as `"GET /users"`.
    case noMock(method: HTTPMethod, path: String, lookedFor: String?, in: String?, routes: [String])
    /// The mock file exists but could not be read.
    case unreadableFile(path: String, reason: String)
    /// The request's path cannot name a mock file safely (a `.` or `..` segment, invalid percent-encoding, a
    /// method that is not an HTTP token), the file name would be longer than the 255-byte limit of file systems,
    /// or the mock file is a symbolic link that leads outside the mock directory.
    case unsafePath(path: String, reason: String)
    /// A value given to `MockResponse.json(_:status:headers:encoder:)` could not be encoded as JSON.
    case cannotEncode(type: String, reason: String)

    /// What went wrong and where the mock looked.
    public var description: String {
        switch self {
        case .noMock(let method, let path, let file, let directory, let routes):
            let files =
                if let file, let directory {
                    "there is no file \(file) in \(directory)"
                } else {
                    "this mock has no directory of mock files"
                }
            let registered = routes.isEmpty ? "no routes are registered" : "routes: \(routes.joined(separator: ", "))"
            return "No mock for \(method) \(path): no route matches and \(files); \(registered)"
        case .unreadableFile(let path, let reason):
            return "The mock file \(path) exists but cannot be read: \(reason)"
        case .unsafePath(let path, let reason):
            return "The request path \(path) cannot name a mock file: \(reason)"
        case .cannotEncode(let type, let reason):
            return "Cannot encode the mock response of type \(type) as JSON: \(reason)"
        }
    }

    /// The `MockError` that `error` is or wraps (as the `underlyingError` of an `HTTPTransportError` or a
    /// `TinyAPIError`, or an `NSError`'s `NSUnderlyingErrorKey`, at any depth), `nil` if there is none. A
    /// `StatefulEndpoint` failure holds it in its `RequestError`: pass `state.error?.underlyingError`.
    ///
    /// ```swift
    /// let mockError = MockError(error)   // error thrown by MockTransport or MockTinyAPIClient
    /// ```
    public init?(_ error: any Error) {
        let wrapped =
            (error as? HTTPTransportError)?.underlyingError ?? (error as? TinyAPIError)?.underlyingError
            ?? (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
        guard let found = error as? MockError ?? wrapped.flatMap(MockError.init) else { return nil }
        self = found
    }

    /// The same text as ``description``, so `localizedDescription` shows it too.
    public var errorDescription: String? { description }
}
