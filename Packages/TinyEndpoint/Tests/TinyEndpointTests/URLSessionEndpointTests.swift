import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// The `URLSession` loading APIs without a server: a refused connection on 127.0.0.1. The root integration tests
/// run them against the in-process test server.
@Suite(.timeLimit(.minutes(1))) struct URLSessionEndpointTests {
    /// Nothing listens on port 1 of the loopback interface: connecting is refused at once.
    let refused = Endpoint<()>(.get, url: URL(fileURLWithPath: "/")).with(url: "http://127.0.0.1:1/nothing")

    @Test func dataTaskIsReturnedSuspended() {
        let task = URLSession.shared.dataTask(endpoint: refused) { _ in }
        #expect(task.state == .suspended)
        #expect(task.originalRequest?.url?.absoluteString == "http://127.0.0.1:1/nothing")
        task.cancel()
    }

    @Test func loadStartsTheTaskAndReportsTransportFailures() async throws {
        let error = await withCheckedContinuation { continuation in
            let task = URLSession.shared.load(refused) { continuation.resume(returning: $0.error) }
            #expect(task.state != .suspended)
        }
        let transportError = try #require(error as? HTTPTransportError)
        #expect(transportError.code == .cannotConnect)
        #expect(transportError.request?.url?.absoluteString == "http://127.0.0.1:1/nothing")
        #expect(transportError.underlyingError != nil)
    }

    @Test func cancellingTheTaskIsReportedAsCancelled() async throws {
        let error = await withCheckedContinuation { continuation in
            let task = URLSession.shared.dataTask(endpoint: refused) { continuation.resume(returning: $0.error) }
            task.cancel()
            task.resume()
        }
        #expect((error as? HTTPTransportError)?.code == .cancelled)
    }
}

extension Endpoint {
    /// This endpoint with its request sent to `url`.
    fileprivate func with(url: String) -> Endpoint {
        var copy = self
        copy.request.url = URL(string: url)
        return copy
    }
}
