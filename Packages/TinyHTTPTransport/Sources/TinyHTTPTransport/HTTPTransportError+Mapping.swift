import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransportError {
    /// Wraps any error of an HTTP client as an `HTTPTransportError`, keeping it as ``underlyingError``.
    ///
    /// - An `HTTPTransportError` is returned as it is (its request filled in when it had none).
    /// - `CancellationError` becomes ``Code/cancelled``.
    /// - A `URLError` (or an `NSError` of `NSURLErrorDomain`) gets the code of its category:
    ///
    ///   | URLError | code |
    ///   |---|---|
    ///   | `cannotConnectToHost`, `cannotFindHost`, `networkConnectionLost`, `notConnectedToInternet`, `dnsLookupFailed` | ``Code/cannotConnect`` |
    ///   | `timedOut` | ``Code/timedOut`` |
    ///   | `cancelled` | ``Code/cancelled`` |
    ///   | `badURL`, `unsupportedURL` | ``Code/invalidRequest`` |
    ///   | anything else | ``Code/other`` |
    ///
    ///   except `unsupportedURL` for an `http`/`https` request: FoundationNetworking (libcurl) reports a reply that
    ///   is not HTTP that way, a fault of the server rather than of the request, so it becomes ``Code/other``.
    /// - Anything else becomes ``Code/other``.
    public init(mapping error: any Error, request: URLRequest?) {
        if var error = error as? HTTPTransportError {
            if error.request == nil { error.request = request }
            self = error
        } else if error is CancellationError {
            self.init(.cancelled, request: request, underlyingError: error)
        } else if let code = Self.urlErrorCode(of: error) {
            let scheme = request?.url?.scheme?.lowercased()
            if code == .unsupportedURL, scheme == "http" || scheme == "https" {
                self.init(.other, request: request, underlyingError: error, message: "the reply is not HTTP")
            } else {
                self.init(Code(urlErrorCode: code), request: request, underlyingError: error)
            }
        } else {
            self.init(.other, request: request, underlyingError: error)
        }
    }

    /// The `URLError` code of `error`, when it is a `URLError` or an `NSError` of `NSURLErrorDomain` (the form
    /// FoundationNetworking reports on Linux).
    static func urlErrorCode(of error: any Error) -> URLError.Code? {
        if let urlError = error as? URLError { return urlError.code }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : nil
    }
}

extension HTTPTransportError.Code {
    /// The category of a `URLError` code (the table in ``HTTPTransportError/init(mapping:request:)``).
    init(urlErrorCode: URLError.Code) {
        switch urlErrorCode {
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet, .dnsLookupFailed:
            self = .cannotConnect
        case .timedOut:
            self = .timedOut
        case .cancelled:
            self = .cancelled
        case .badURL, .unsupportedURL:
            self = .invalidRequest
        default:
            self = .other
        }
    }
}
