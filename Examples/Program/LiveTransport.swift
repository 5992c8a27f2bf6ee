import Foundation
import TinyHTTPTransport

#if AsyncHTTPClient
    import TinyAsyncHTTPClientTransport
#endif

extension ExamplesOptions.Transport {
    /// The error of `--transport asynchttpclient` in a build without TinyKit's `AsyncHTTPClient` trait.
    public static let asyncHTTPClientNotBuilt = UsageError(
        "--transport asynchttpclient needs TinyKit's AsyncHTTPClient trait: "
            + "swift run --traits AsyncHTTPClient tinykit-examples --transport asynchttpclient")

    /// Whether this build can send with the transport: `asynchttpclient` needs the `AsyncHTTPClient` trait.
    public var isBuilt: Bool {
        switch self {
        case .urlsession: return true
        case .asynchttpclient:
            #if AsyncHTTPClient
                return true
            #else
                return false
            #endif
        }
    }

    /// The live transport of the examples.
    ///
    /// - Throws: ``asyncHTTPClientNotBuilt`` for `asynchttpclient` in a build without the trait.
    func make() throws(UsageError) -> any HTTPTransport {
        switch self {
        case .urlsession:
            return URLSessionTransport()
        case .asynchttpclient:
            #if AsyncHTTPClient
                // The process-wide client: it lives as long as the program.
                return AsyncHTTPClientTransport.shared
            #else
                throw Self.asyncHTTPClientNotBuilt
            #endif
        }
    }
}
