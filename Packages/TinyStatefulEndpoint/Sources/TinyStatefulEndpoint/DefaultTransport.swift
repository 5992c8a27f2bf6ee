import Foundation
import TinyEndpoint
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// TEMPORARY until TinyHTTPTransport's `URLSessionTransport` lands: then `defaultTransport` becomes
// `URLSessionTransport.shared` and this stand-in goes away.
struct PendingLiveTransport: HTTPTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        throw HTTPTransportError(.other, request: request, message: "URLSessionTransport has not landed yet")
    }
}

/// The transport used when none is given: the live `URLSession` one.
let defaultTransport: any HTTPTransport = PendingLiveTransport()

extension StatefulEndpoint {
    /// Creates a stateful endpoint that loads through the live `URLSession` transport, TinyHTTP style:
    /// `StatefulEndpoint(endpoint: api.get())`.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - maximumAge: After how many seconds a loaded value is stale (see ``init(endpoint:transport:maximumAge:now:)``).
    public convenience init(endpoint: Endpoint<A>, maximumAge: TimeInterval? = nil) {
        self.init(endpoint: endpoint, transport: defaultTransport, maximumAge: maximumAge)
    }
}
