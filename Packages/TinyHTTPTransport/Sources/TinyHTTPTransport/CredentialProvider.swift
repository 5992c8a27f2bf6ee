/// Where the authorization middleware (``HTTPMiddleware/authorization(_:header:)``) gets its credential, and how
/// it gets a new one after a `401`.
///
/// A credential is the whole header value, for example `"Bearer eyJhbGciOi…"`. Implement it as an actor that
/// holds your tokens:
///
/// ```swift
/// actor Tokens: CredentialProvider {
///     var accessToken = "old"
///     let authServer: any HTTPTransport = URLSessionTransport.shared   // its own transport, without .authorization
///     func credential() async throws -> String? { "Bearer \(accessToken)" }
///     func refreshCredential(rejected: String?) async throws -> String {
///         accessToken = try await fetchNewAccessToken(on: authServer)   // for example with your refresh token
///         return "Bearer \(accessToken)"
///     }
/// }
/// ```
///
/// Refresh through a transport of its own, one without the authorization middleware: the token request then
/// carries only what you put in it. (Through the authorized transport it works too: requests sent during a refresh
/// pass through the middleware untouched, so the refresh never waits on itself.)
public protocol CredentialProvider: Sendable {
    /// The credential to send now, or `nil` to send the request without one.
    func credential() async throws -> String?

    /// Gets a new credential because `rejected` was refused with a `401` (`nil` when the request had none), and
    /// returns it. From then on, ``credential()`` must return the new one too: the middleware compares a refused
    /// credential with ``credential()`` and refreshes only when they are the same (or there is none).
    ///
    /// The middleware calls it once for all the requests refused at the same time, never concurrently with
    /// itself. Throw when no new credential can be had (the user has to sign in again, say): every waiting
    /// request then fails with that error as its `underlyingError`.
    func refreshCredential(rejected: String?) async throws -> String
}
