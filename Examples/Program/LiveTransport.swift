import Foundation
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport of the examples.
func liveTransport() -> any HTTPTransport {
    URLSessionTransport()
}
