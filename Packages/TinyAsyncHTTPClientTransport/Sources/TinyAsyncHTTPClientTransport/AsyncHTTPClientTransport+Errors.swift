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
        /// An `HTTPTransportError` comes back as it is, with `request` set when it had none; a `CancellationError` and
        /// the failures not listed here are mapped by `HTTPTransportError(mapping:request:)`.
        ///
        /// - Parameters:
        ///   - error: What the client threw.
        ///   - request: The request that failed.
        static func transportError(for error: any Error, request: URLRequest) -> HTTPTransportError {
            let (code, message): (HTTPTransportError.Code, String?)
            switch error {
            case HTTPClientError.cancelled:
                (code, message) = (.cancelled, nil)
            case HTTPClientError.deadlineExceeded:
                (code, message) = (.timedOut, "no response head within the request's timeoutInterval")
            case HTTPClientError.connectTimeout, HTTPClientError.readTimeout, HTTPClientError.writeTimeout,
                HTTPClientError.tlsHandshakeTimeout, HTTPClientError.getConnectionFromPoolTimeout,
                HTTPClientError.socksHandshakeTimeout, HTTPClientError.httpProxyHandshakeTimeout,
                ChannelError.connectTimeout:
                (code, message) = (.timedOut, nil)
            // `invalidEOFState`: the connection closed before the head or body was whole.
            case HTTPClientError.remoteConnectionClosed, HTTPParserError.invalidEOFState:
                (code, message) = (.cannotConnect, "the server closed the connection before the response was complete")
            case is NIOConnectionError, is IOError, ChannelError.eof, ChannelError.ioOnClosedChannel,
                ChannelError.alreadyClosed, ChannelError.outputClosed:
                (code, message) = (.cannotConnect, nil)
            // The cases with a payload (an unsupported scheme, header names or values AsyncHTTPClient refuses) match
            // whatever their payload (see `~=` below).
            case HTTPClientError.invalidURL, HTTPClientError.emptyHost, HTTPClientError.emptyScheme,
                HTTPClientError.missingSocketPath, HTTPClientError.traceRequestWithBody,
                HTTPClientError.unsupportedScheme(""), HTTPClientError.invalidHeaderFieldNames([]),
                HTTPClientError.invalidHeaderFieldValues([]):
                (code, message) = (.invalidRequest, nil)
            case is HTTPParserError:
                (code, message) = (.other, "the reply is not valid HTTP")
            case NIOHTTPDecompression.DecompressionError.limit:  // `.tinyKit`'s ratio, or another client's own limit
                (code, message) = (.other, "the response body inflates past the client's decompression limit")
            #if canImport(Network)
                // Network.framework, the event loops of AsyncHTTPClient on Apple platforms.
                case let error as HTTPClient.NWPOSIXError:
                    (code, message) = (error.errorCode == .ETIMEDOUT ? .timedOut : .cannotConnect, nil)
            #endif
            default:  // an `HTTPTransportError` as it is, `.cancelled` for a `CancellationError`, else `.other`
                return HTTPTransportError(mapping: error, request: request)
            }
            return HTTPTransportError(code, request: request, underlyingError: error, message: message)
        }
    }

    /// Lets a `switch` over any error match AsyncHTTPClient's errors by case, as it matches SwiftNIO's enum cases:
    /// by their short description, which is one for each case and leaves a case's payload out.
    private func ~= (pattern: HTTPClientError, error: any Error) -> Bool {
        (error as? HTTPClientError)?.shortDescription == pattern.shortDescription
    }
#endif
