#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOHTTPCompression
    import NIOPosix
    import TinyHTTPTransport

    extension AsyncHTTPClientTransport {
        /// The `HTTPTransportError` for a failure of AsyncHTTPClient or SwiftNIO, in the categories
        /// `URLSessionTransport` uses for the same failures. The original error is kept as `underlyingError`.
        ///
        /// The table is in the package's Getting Started article ("Errors").
        ///
        /// An `HTTPTransportError` comes back as it is, with `request` set when it had none.
        ///
        /// - Parameters:
        ///   - error: What the client threw.
        ///   - request: The request that failed.
        static func transportError(for error: any Error, request: URLRequest) -> HTTPTransportError {
            if error is HTTPTransportError {
                return HTTPTransportError(mapping: error, request: request)
            }
            let (code, message) = category(of: error)
            return HTTPTransportError(code, request: request, underlyingError: error, message: message)
        }

        private static func category(of error: any Error) -> (HTTPTransportError.Code, String?) {
            switch error {
            case HTTPClientError.cancelled, is CancellationError:
                return (.cancelled, nil)
            case HTTPClientError.deadlineExceeded:
                return (.timedOut, "no response head within the request's timeoutInterval")
            case HTTPClientError.connectTimeout, HTTPClientError.readTimeout, HTTPClientError.writeTimeout,
                HTTPClientError.tlsHandshakeTimeout, HTTPClientError.getConnectionFromPoolTimeout,
                HTTPClientError.socksHandshakeTimeout, HTTPClientError.httpProxyHandshakeTimeout,
                ChannelError.connectTimeout:
                return (.timedOut, nil)
            // `invalidEOFState`: the connection closed before the head or body was whole.
            case HTTPClientError.remoteConnectionClosed, HTTPParserError.invalidEOFState:
                return (.cannotConnect, "the server closed the connection before the response was complete")
            case is NIOConnectionError, is IOError, ChannelError.eof, ChannelError.ioOnClosedChannel,
                ChannelError.alreadyClosed, ChannelError.outputClosed:
                return (.cannotConnect, nil)
            case HTTPClientError.invalidURL, HTTPClientError.emptyHost, HTTPClientError.emptyScheme,
                HTTPClientError.missingSocketPath:
                return (.invalidRequest, nil)
            // Cases with a payload (an unsupported scheme, header names or values AsyncHTTPClient refuses) are told
            // apart by their short description, which leaves the payload out.
            case let error as HTTPClientError where requestFaults.contains(error.shortDescription):
                return (.invalidRequest, nil)
            case is HTTPParserError:
                return (.other, "the reply is not valid HTTP")
            case NIOHTTPDecompression.DecompressionError.limit:  // `.tinyKit`'s ratio, or another client's own limit
                return (.other, "the response body inflates past the client's decompression limit")
            default:
                #if canImport(Network)
                    // Network.framework, the event loops of AsyncHTTPClient on Apple platforms.
                    if let error = error as? HTTPClient.NWPOSIXError {
                        return (error.errorCode == .ETIMEDOUT ? .timedOut : .cannotConnect, nil)
                    }
                #endif
                return (.other, nil)
            }
        }

        private static let requestFaults: Set = [
            "Unsupported scheme", "Invalid header field names", "Invalid header field values",
            "Trace request with body",
        ]
    }

    /// Lets a `switch` over any error match AsyncHTTPClient's errors by value, as it matches SwiftNIO's enum cases.
    private func ~= (pattern: HTTPClientError, error: any Error) -> Bool {
        (error as? HTTPClientError) == pattern
    }
#endif
