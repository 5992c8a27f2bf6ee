import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Checks that no header name or value contains CR, LF or NUL, which would let a value start a new header
    /// line (header injection).
    ///
    /// ``URLSessionTransport`` and the `URLSession` conformance call it for every request before sending it;
    /// call it yourself in your own ``HTTPTransport``.
    ///
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/invalidRequest``, naming the header.
    public func validateHeaders() throws(HTTPTransportError) {
        for (name, value) in allHTTPHeaderFields ?? [:] {
            if Self.containsLineBreak(name) {
                throw HTTPTransportError(
                    .invalidRequest, request: self,
                    message: "the header name \(name.debugDescription) contains CR, LF or NUL")
            }
            if Self.containsLineBreak(value) {
                throw HTTPTransportError(
                    .invalidRequest, request: self,
                    message: "the value of the header \"\(name)\" contains CR, LF or NUL")
            }
        }
    }

    private static func containsLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
    }
}
