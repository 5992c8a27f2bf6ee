import Foundation

// On Linux `URLRequest`, `URLSession` and `HTTPURLResponse` live in FoundationNetworking. Re-exported, they come with
// `import TinyHTTPTransport` (and the umbrella `import TinyKit`) as they come with Foundation on Apple platforms: the
// TinyKit modules built on this one, and apps, need no `#if canImport(FoundationNetworking)` of their own. Nor do
// this module's other files: the compiler makes a module that one file re-exports visible in every file of the
// module (SE-0444 keeps that rule for member lookups).
#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif

/// Something that sends an HTTP request and returns the response: the one seam every TinyKit load goes through.
///
/// `URLSessionTransport` is the live implementation; TinyMocks provides one for tests and previews; any other
/// client (AsyncHTTPClient on servers, a middleware that retries or logs) conforms by implementing ``send(_:)``.
///
/// ```swift
/// let transport: any HTTPTransport = URLSessionTransport()
/// let (body, response) = try await transport.send(URLRequest(url: url))
/// ```
///
/// A transport returns every response it receives, whatever its status code: deciding which statuses are
/// acceptable is the caller's job (see ``validateStatus(response:body:request:expectedStatusCode:)``). It throws
/// ``HTTPTransportError`` when no response arrived (could not connect, timed out, cancelled, an invalid request).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response body and the response.
    ///
    /// Cancelling the task that awaits this call cancels the request.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The body bytes (empty when there were none) and the HTTP response.
    /// - Throws: ``HTTPTransportError`` when no HTTP response could be had.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// ``send(_:)`` for a caller that may not need the `HTTPURLResponse`: the body, the status and the
    /// `Content-Type` (or at least its media type) at once, and the response when `response` is called.
    ///
    /// `HTTPTransport.load(_:)` sends with it: an accepted JSON body that decodes needs only these, and any other outcome
    /// asks for the response. The default implementation is ``send(_:)``. Implement it in a transport for which
    /// making an `HTTPURLResponse` is costly: `AsyncHTTPClientTransport` makes one only when asked, because
    /// Foundation's `HTTPURLResponse.init(url:statusCode:httpVersion:headerFields:)` canonicalises every header name
    /// (about a sixth of a small request's instructions on Linux). `response` throws what ``send(_:)`` would have
    /// thrown making it.
    func sendDeferringResponse(_ request: URLRequest) async throws
        -> (body: Data, status: Int, contentType: String?, response: @Sendable () throws -> HTTPURLResponse)
}

extension HTTPTransport {
    /// ``send(_:)``, its response made at once (its `mimeType` is the media type of its `Content-Type`).
    public func sendDeferringResponse(_ request: URLRequest) async throws
        -> (body: Data, status: Int, contentType: String?, response: @Sendable () throws -> HTTPURLResponse)
    {
        let (body, response) = try await send(request)
        return (body, response.statusCode, response.mimeType, { response })
    }
}

extension HTTPTransport {
    /// The largest response body a transport reads into memory unless told otherwise: 10 MiB (the default
    /// `maximumResponseBodySize` of `URLSessionTransport` and `AsyncHTTPClientTransport`).
    public static var defaultMaximumResponseBodySize: Int { 10 * 1024 * 1024 }
}

extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws: the async twin of `Result(catching:)`.
    @_spi(TinyKit) public init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

extension Task where Failure == any Error {
    /// The task's value, or `CancellationError` as soon as the awaiting task is cancelled: a shared task (a refresh,
    /// a load) goes on for the others waiting on it.
    @_spi(TinyKit) public var valueUnlessCancelled: Success {
        get async throws {
            // Iterating a stream ends as soon as the iterating task is cancelled.
            let (results, continuation) = AsyncStream.makeStream(of: Result<Success, any Error>.self)
            Task<Void, Never> { continuation.yield(await result) }
            for await result in results { return try result.get() }
            throw _Concurrency.CancellationError()  // not `Task.CancellationError`, a deprecated spelling
        }
    }
}
