import Foundation

extension URLRequest {
    /// Checks that the request can be sent as it is: it has a URL, its method is an HTTP token, a `GET` has no body
    /// (no `httpBody` bytes, no `httpBodyStream`), every header name is an HTTP token and no header value contains
    /// CR, LF, NUL or another control character.
    ///
    /// A line break would let a value start a new header line (header injection), a method with a space, CR or LF
    /// would rewrite the request line on Linux (request splitting), and a name that is not a token is not HTTP at
    /// all (SwiftNIO traps on a name that is not ASCII). A request without a method is a `GET` and passes.
    ///
    /// Every `URLSession` entry, the mocks and the AsyncHTTPClient transport call it before sending; call it
    /// yourself in your own ``HTTPTransport``. On Linux, `setValue(_:forHTTPHeaderField:)` silently drops a value
    /// with CR or LF while ``setHeader(_:_:)`` keeps it, so that this check names it.
    ///
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/invalidRequest``, naming the header or
    ///   quoting the method (never repeating a header value, which may be a secret).
    public func validate() throws(HTTPTransportError) {
        do throws(HTTPTransportError) {
            guard url != nil else { throw HTTPTransportError(.invalidRequest, message: "the request has no URL") }
            if let method = httpMethod, !Self.isToken(method) {
                throw HTTPTransportError(
                    .invalidRequest, message: "the method \(method.debugDescription) is not an HTTP token")
            }
            // URLSession refuses one too (URLError -1103 on Linux, another failure on Apple platforms), a body stream
            // even when it is empty.
            if httpMethod ?? "GET" == "GET", httpBody?.isEmpty == false || httpBodyStream != nil {
                throw HTTPTransportError(.invalidRequest, message: "a GET request cannot have a body")
            }
            for (name, value) in allHTTPHeaderFields ?? [:] { try Self.validateHeaderField(name: name, value: value) }
        } catch {
            throw HTTPTransportError(mapping: error, request: self)  // what the check said, with the request it refused
        }
    }

    /// Checks one header field: `name` must be an HTTP token, and `value` may hold no control character but
    /// horizontal tab.
    ///
    /// - Throws: `HTTPTransportError` with code `invalidRequest`, naming the header (never repeating the value,
    ///   which may be a secret).
    static func validateHeaderField(name: String, value: String) throws(HTTPTransportError) {
        if !isToken(name) {
            throw HTTPTransportError(
                .invalidRequest, message: "the header name \(name.debugDescription) is not an HTTP token")
        }
        var value = value  // `withUTF8` reads a native string's bytes in place, several times faster than `utf8`
        if let control = value.withUTF8({ $0.first { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } }) {
            let what = [0x0D, 0x0A, 0x00].contains(control) ? "CR, LF or NUL" : "a control character"
            throw HTTPTransportError(.invalidRequest, message: "the value of the header \"\(name)\" contains \(what)")
        }
    }

    /// Whether `text` is an HTTP token (RFC 9110 `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``).
    static func isToken(_ text: String) -> Bool {
        var text = text
        return !text.isEmpty && text.withUTF8 { $0.allSatisfy(isTokenByte) }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true  // digits, `A`-`Z`, `a`-`z`
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
