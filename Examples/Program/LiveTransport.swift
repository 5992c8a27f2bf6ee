import Foundation
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport of the examples.
func liveTransport() -> any HTTPTransport {
    TemporarySessionTransport()
}

// TODO: replace with TinyHTTPTransport's URLSessionTransport once it lands.
private struct TemporarySessionTransport: HTTPTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch let error as URLError where error.code == .cannotConnectToHost {
            throw HTTPTransportError(.cannotConnect, request: request, underlyingError: error)
        } catch {
            throw HTTPTransportError(.other, request: request, underlyingError: error)
        }
        guard let response = response as? HTTPURLResponse else { throw HTTPTransportError(.other, request: request) }
        return (data, response)
    }
}
