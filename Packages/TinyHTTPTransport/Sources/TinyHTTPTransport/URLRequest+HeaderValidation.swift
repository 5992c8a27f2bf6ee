import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Checks that every header name is an HTTP token and that no value contains CR, LF, NUL or another control
    /// character: a line break would let a value start a new header line (header injection), and a name that is
    /// not a token (empty, with a space, not ASCII) is not HTTP at all (SwiftNIO traps on a name that is not ASCII).
    ///
    /// ``URLSessionTransport`` and the `URLSession` conformance call it for every request before sending it;
    /// call it yourself in your own ``HTTPTransport``.
    ///
    /// On Linux, `setValue(_:forHTTPHeaderField:)` silently drops such a value (the request goes out without
    /// the header), while `allHTTPHeaderFields` keeps it; check a value you are about to set with
    /// ``validateHeaderField(name:value:)`` to hear about it.
    ///
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/invalidRequest``, naming the header.
    public func validateHeaders() throws(HTTPTransportError) {
        for (name, value) in allHTTPHeaderFields ?? [:] {
            do {
                try Self.validateHeaderField(name: name, value: value)
            } catch {
                var error = error
                error.request = self
                throw error
            }
        }
    }

    /// Checks one header field: `name` must be an HTTP token, and `value` may hold no control character but
    /// horizontal tab.
    ///
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/invalidRequest``, naming the header (never
    ///   repeating the value, which may be a secret).
    public static func validateHeaderField(name: String, value: String) throws(HTTPTransportError) {
        if !isToken(name) {
            throw HTTPTransportError(
                .invalidRequest, message: "the header name \(name.debugDescription) is not an HTTP token")
        }
        if containsLineBreak(value) {
            throw HTTPTransportError(
                .invalidRequest, message: "the value of the header \"\(name)\" contains CR, LF or NUL")
        }
        if value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw HTTPTransportError(
                .invalidRequest, message: "the value of the header \"\(name)\" contains a control character")
        }
    }

    /// Checks that the method is an HTTP token (ASCII letters, digits and `!#$%&'*+-.^_|~` or a backtick): on Linux,
    /// a method with a space, CR or LF would be sent as it is and rewrite the request line (request splitting).
    ///
    /// ``URLSessionTransport`` and the `URLSession` conformance call it for every request before sending it;
    /// call it yourself in your own ``HTTPTransport``. A request without a method is a `GET` and passes.
    ///
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/invalidRequest``, quoting the method.
    public func validateMethod() throws(HTTPTransportError) {
        guard let method = httpMethod else { return }
        if !Self.isToken(method) {
            throw HTTPTransportError(
                .invalidRequest, request: self, message: "the method \(method.debugDescription) is not an HTTP token")
        }
    }

    /// The bytes of an HTTP token (RFC 9110 `tchar`), built once rather than for every request.
    private static let tokenBytes = Set(
        "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(tokenBytes.contains)
    }

    private static func containsLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
    }
}
