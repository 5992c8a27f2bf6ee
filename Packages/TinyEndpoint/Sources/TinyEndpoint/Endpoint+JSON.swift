import Foundation
import TinyHTTPTransport

extension Endpoint where A: DecodableResult {
    /// Creates an endpoint that decodes a JSON response as `A`, optionally sending `body` as JSON (TinyNetworking's
    /// `json:` initialiser).
    ///
    /// ```swift
    /// let user = Endpoint<User>(json: .get, url: userURL)
    /// let created = Endpoint<User>(json: .post, url: usersURL, body: NewUser(name: "Ada"))
    /// ```
    ///
    /// An empty body (or JSON whitespace alone) decodes as `nil` when `A` is optional, as ``EmptyResponse`` and as
    /// `""`; for any other type it fails with ``EndpointError/noData(type:response:)``. Decoding failures are
    /// ``EndpointError/decodingFailed(type:codingPath:underlying:body:)``.
    /// A `String` result is the body as text: in the charset the `Content-Type` names, UTF-8 by default (an empty
    /// body is `""`; bytes that are not valid text in that charset are a decoding failure); from a response whose
    /// `Content-Type` names JSON, it is decoded as a JSON string (`"tok_123"` is `tok_123`), as the seeds do. Any other
    /// result is decoded only from a JSON response (`application/json`, `text/json`, `…+json`, or no
    /// `Content-Type`): an HTML error page or XML fails with ``EndpointError/unexpectedContentType(_:body:)`` naming
    /// the content type, unless `checksContentType` is `false`.
    ///
    /// A body that cannot be encoded (TinyNetworking crashes on it) is kept as ``requestError``,
    /// ``EndpointError/encodingFailed(type:codingPath:underlying:)`` naming the body's type and the coding path, and
    /// thrown when the endpoint is loaded, before anything is sent. No body (the default, or `nil`, also an optional
    /// that is `nil` passed through generic code) sends no body and no `Content-Type` (not `null`). A `Data` or
    /// `String` body is sent as it is, not encoded: `Data` with
    /// `Content-Type: application/octet-stream`, `String` as UTF-8 with `text/plain; charset=utf-8`, unless `headers`
    /// name another.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The URL; `query` is appended to its own query items.
    ///   - accept: The `Accept` header; JSON by default.
    ///   - body: The value sent as the JSON body (with `Content-Type: application/json`); `Data` or `String` as it
    ///     is; none by default.
    ///   - headers: More headers; a `Content-Type` here wins.
    ///   - expectedStatusCode: Which status codes are accepted; 200–299 by default.
    ///   - timeOutInterval: The request's timeout in seconds.
    ///   - query: Query items appended to the URL, sorted by name.
    ///   - decoder: The decoder for the response.
    ///   - encoder: The encoder for the body.
    ///   - checksContentType: Whether a response whose `Content-Type` is not JSON is refused before decoding, with
    ///     ``EndpointError/unexpectedContentType(_:body:)`` (a response without one is decoded). Pass `false` for a
    ///     server that labels its JSON as something else.
    public init<B: Encodable>(
        json method: HTTPMethod, url: URL, accept: ContentType = .json, body: B? = Data?.none,
        headers: [String: String] = [:],
        expectedStatusCode: @escaping @Sendable (Int) -> Bool = expected200to300, timeOutInterval: TimeInterval = 10,
        query: [String: String] = [:], decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder(),
        checksContentType: Bool = true
    ) {
        // As `Endpoint<Void>(json:…)` builds its request, but not through that endpoint: making it (its closures) cost
        // every endpoint made here about 2,100 instructions more, a quarter of this initialiser (callgrind).
        let prepared = encoder.requestBody(body)
        self.init(
            method, url: url, accept: accept, contentType: prepared?.contentType, body: prepared?.body,
            headers: headers, expectedStatusCode: expectedStatusCode, timeOutInterval: timeOutInterval, query: query,
            parse: decoder.parse(checksContentType: checksContentType))
        requestError = prepared?.error
        parseWithoutResponse = decoder.parseWithoutResponse(checksContentType: checksContentType)
    }

    /// An endpoint that sends `request` and decodes its JSON response with `decoder`, as the JSON initialiser does
    /// (``parse`` and its shortcut ``parseWithoutResponse``): `TinyAPIEndpoint.endpoint(as:)`'s and `TinyAPIClient`'s.
    /// (Inlinable, as `TinyAPIClient.request(_:as:)` that makes one a request: specialised there for its type, with no
    /// metadata lookup or value-witness calls for `Endpoint<T>`, about 700 instructions a request, callgrind.)
    @inlinable init(request: URLRequest, decoder: JSONDecoder, checksContentType: Bool) {
        self.init(request: request, parse: decoder.parse(checksContentType: checksContentType))
        parseWithoutResponse = decoder.parseWithoutResponse(checksContentType: checksContentType)
    }
}

extension Endpoint where A == Void {
    /// Creates an endpoint that sends `body` as JSON and ignores the response body (TinyNetworking's
    /// `Endpoint<()>(json:url:body:)`).
    ///
    /// ```swift
    /// let update = Endpoint<()>(json: .put, url: todoURL, body: todo, headers: authHeader)
    /// ```
    ///
    /// A body that cannot be encoded is kept as ``requestError`` and thrown when the endpoint is loaded, before
    /// anything is sent (never a request without its body). No body (the default, or an optional that is `nil`, also
    /// one passed through generic code) sends no body and no `Content-Type` (not `null`), as the decoding initialiser
    /// does. A `Data` or `String` body is sent as it is, not encoded: `Data` with
    /// `Content-Type: application/octet-stream`, `String` as UTF-8 with `text/plain; charset=utf-8`, unless `headers`
    /// name another. Any accepted status code succeeds, 204 and empty bodies included.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The URL; `query` is appended to its own query items.
    ///   - accept: The `Accept` header; JSON by default.
    ///   - body: The value sent as the JSON body (with `Content-Type: application/json`); `Data` or `String` as it
    ///     is; none by default.
    ///   - headers: More headers; a `Content-Type` here wins.
    ///   - expectedStatusCode: Which status codes are accepted; 200–299 by default.
    ///   - timeOutInterval: The request's timeout in seconds.
    ///   - query: Query items appended to the URL, sorted by name.
    ///   - encoder: The encoder for the body.
    public init<B: Encodable>(
        json method: HTTPMethod, url: URL, accept: ContentType? = .json, body: B? = Data?.none,
        headers: [String: String] = [:],
        expectedStatusCode: @escaping @Sendable (Int) -> Bool = expected200to300, timeOutInterval: TimeInterval = 10,
        query: [String: String] = [:], encoder: JSONEncoder = JSONEncoder()
    ) {
        // A failure is no body here and the requestError below, thrown before anything is sent.
        let prepared = encoder.requestBody(body)
        self.init(
            method, url: url, accept: accept, contentType: prepared?.contentType, body: prepared?.body,
            headers: headers, expectedStatusCode: expectedStatusCode, timeOutInterval: timeOutInterval, query: query)
        requestError = prepared?.error
    }
}

#if compiler(>=6.2)
    /// A type a JSON endpoint can decode off the caller's actor: `Decodable`, with a conformance usable from any
    /// isolation (`SendableMetatype`, which every type has unless its `Decodable` conformance is isolated to an
    /// actor, for example `@MainActor`).
    public typealias DecodableResult = Decodable & SendableMetatype
#else
    /// A type a JSON endpoint can decode: `Decodable`.
    public typealias DecodableResult = Decodable
#endif

/// The result type for a JSON endpoint whose response has no body worth reading: it decodes from an empty body
/// (for example a `204 No Content`) and from any JSON body, which it ignores.
///
/// ```swift
/// let deleted = Endpoint<EmptyResponse>(json: .delete, url: todoURL)
/// ```
public struct EmptyResponse: Decodable, Sendable, Hashable, EmptyBodyDecodable {
    /// Creates an empty response.
    public init() {}

    /// Decodes from any JSON value, ignoring it.
    public init(from decoder: any Decoder) throws {}
}

/// A type with a value that stands for an empty response body.
protocol EmptyBodyDecodable {
    /// The value an empty body decodes to.
    init()
}

extension Optional: EmptyBodyDecodable {
    /// `nil`, the value an empty body decodes to.
    init() { self = nil }
}

/// `""`, the value an empty body decodes to as text.
extension String: EmptyBodyDecodable {}

/// An optional, whatever it wraps: whether it is `nil`.
protocol NoneTestable {
    var isNone: Bool { get }
}

extension Optional: NoneTestable {
    var isNone: Bool { self == nil }
}

extension JSONDecoder {
    /// Decodes a response body as JSON: TinyHTTP's decode function, to pass as an endpoint's `decodeResponse`.
    ///
    /// ```swift
    /// Endpoint(request: request, decodeResponse: jsonDecoder.decodeResponse)
    /// ```
    ///
    /// - Parameters:
    ///   - data: The response body.
    ///   - response: The response.
    /// - Returns: The decoded value; for an empty body `nil` when `T` is optional, an ``EmptyResponse`` or `""`; for a
    ///   `String`, the body as text, or the JSON string when the `Content-Type` names JSON.
    /// - Throws: ``EndpointError/noData(type:response:)`` for an empty body,
    ///   ``EndpointError/unexpectedContentType(_:body:)`` for a response whose `Content-Type` is not JSON, otherwise
    ///   ``EndpointError/decodingFailed(type:codingPath:underlying:body:)``.
    public func decodeResponse<T: Decodable>(_ data: Data?, _ response: HTTPURLResponse) throws -> T {
        try decodeBody(from: data, response: response)
    }

    /// Decodes `data` as `T`, following the empty-body rules of ``decodeResponse(_:_:)``; a `String` (or `String?`)
    /// is the body as text (``decodeText(_:response:)``) unless the `Content-Type` names JSON. With `checksContentType`, a body whose
    /// `Content-Type` is not JSON is refused before decoding.
    func decodeBody<T: Decodable>(
        from data: Data?, response: URLResponse?, checksContentType: Bool = true
    ) throws(EndpointError) -> T {
        var isText = T.self == String.self || T.self == String?.self
        // A `String` from a response labelled JSON is a JSON string (its quotes and escapes decoded).
        if isText, let type = (response as? HTTPURLResponse)?.mimeType, !type.isEmpty, Self.isJSON(type) {
            isText = false
        }
        // What a body without a value decodes to: `nil`, `EmptyResponse()`, `""`, else no data.
        func none() throws(EndpointError) -> T {
            if let empty = T.self as? any EmptyBodyDecodable.Type, let value = empty.init() as? T { return value }
            throw .noData(type: "\(T.self)", response: response as? HTTPURLResponse)
        }
        guard let data, !data.isEmpty else { return try none() }
        // JSON whitespace alone (a `"\n"` some servers send with a 200 or 204, whatever its `Content-Type`, as an empty
        // body) is no value either; checked only where the body is refused, off the path of a body that decodes.
        func blank() -> Bool { data.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) } }
        // `mimeType`, parsed when the response was made, answers the common case without a header lookup.
        if checksContentType, !isText, let http = response as? HTTPURLResponse, !Self.isJSON(http.mimeType ?? ""),
            let value = http.value(forHTTPHeaderField: "Content-Type"), !Self.isJSON(value)
        {
            if blank() { return try none() }
            throw .unexpectedContentType(value, body: data)
        }
        do {
            if isText, let text = try Self.decodeText(data, response: response) as? T { return text }
            return try decode(T.self, from: data)
        } catch {
            if blank() { return try none() }
            throw .decodingFailed(
                type: "\(T.self)", codingPath: EndpointError.codingPath(of: error), underlying: error, body: data)
        }
    }

    /// The parse function of a JSON endpoint: ``decodeBody(from:response:checksContentType:)`` as a `Result`.
    @usableFromInline func parse<T: DecodableResult>(
        checksContentType: Bool
    ) -> @Sendable (Data?, URLResponse?) -> Result<T, any Error> {
        { data, response in
            Result { try self.decodeBody(from: data, response: response, checksContentType: checksContentType) }
        }
    }

    /// ``parse(checksContentType:)`` without the response, for ``Endpoint/parseWithoutResponse``: the value of a
    /// non-empty body labelled JSON (or not labelled), `nil` where `decodeBody` must decide with the response (text,
    /// an empty body, another `Content-Type`, a body that does not decode: it decodes it again, and its error names
    /// the response). Where it returns a value, `decodeBody` returns the same.
    @usableFromInline func parseWithoutResponse<T: DecodableResult>(
        checksContentType: Bool
    ) -> @Sendable (Data, String?) -> Result<T, any Error>? {
        { data, contentType in
            guard T.self != String.self, T.self != String?.self, !data.isEmpty,
                !checksContentType || Self.isJSON(contentType ?? ""), let value = try? self.decode(T.self, from: data)
            else { return nil }
            return .success(value)
        }
    }

    /// `data` as text in the charset the response's `Content-Type` names, UTF-8 when it names none.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the charset is not one of those known here or the bytes are not
    ///   valid in it (never a lossy decoding with replacement characters).
    static func decodeText(_ data: Data, response: URLResponse?) throws -> String {
        // The `charset` parameter of `Content-Type`, its name in any case: Foundation's `textEncodingName` reads only
        // a lower-case `charset=` on Linux.
        let contentType = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
        let parameters = contentType.split(separator: ";").dropFirst().map { $0.split(separator: "=", maxSplits: 1) }
        let named = parameters.first {
            $0.count == 2 && $0[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
        }
        let quotes = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\""))
        let charset = named.map { $0[1].trimmingCharacters(in: quotes) } ?? response?.textEncodingName ?? "utf-8"
        let name = charset.lowercased()
        let encoding = textEncodings[name]
        // Whole code units only: Foundation drops a UTF-16 or UTF-32 body's odd bytes without a word.
        let unit = name.hasPrefix("utf-16") ? 2 : name.hasPrefix("utf-32") ? 4 : 1
        guard data.count % unit == 0, let text = encoding.flatMap({ String(data: data, encoding: $0) }) else {
            let reason =
                encoding == nil ? "the charset \"\(charset)\" is not supported" : "the body is not \(charset) text"
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: reason))
        }
        return text
    }

    /// Whether a `Content-Type` value is empty or names JSON (`application/json`, `text/json`, `…+json`): one pass
    /// over its bytes, without copying or lower-casing them, because it runs for every response.
    static func isJSON(_ contentType: String) -> Bool {
        var value = contentType
        return value.withUTF8 { bytes in
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            var start = bytes.startIndex
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }  // spaces and tabs
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            // ASCII case-insensitively: `| 0x20` lower-cases letters and keeps `/`, `+` and digits.
            func endsWith(_ suffix: StaticString, whole: Bool = false) -> Bool {
                let count = suffix.utf8CodeUnitCount
                guard whole ? end - start == count : end - start >= count else { return false }
                return (0..<count).allSatisfy { bytes[end - count + $0] | 0x20 == suffix.utf8Start[$0] | 0x20 }
            }
            return start == end || endsWith("application/json", whole: true) || endsWith("text/json", whole: true)
                || endsWith("+json")
        }
    }

    /// The charsets text responses are decoded in, by their IANA names and common aliases (lower-cased).
    static let textEncodings: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "ascii": .ascii, "iso-8859-1": .isoLatin1,
        "latin1": .isoLatin1, "iso-8859-2": .isoLatin2, "windows-1252": .windowsCP1252, "utf-16": .utf16,
        "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian, "utf-32": .utf32,
        "utf-32le": .utf32LittleEndian, "utf-32be": .utf32BigEndian, "shift_jis": .shiftJIS,
    ]
}

extension JSONEncoder {
    /// The body to send for `body` and its `Content-Type`: `Data` and `String` as they are (``rawRequestBody(_:)``),
    /// any other value encoded as JSON. A value that cannot be encoded is no body, `application/json`, and the error
    /// naming its type and the coding path, for the endpoint to keep as its ``Endpoint/requestError``. `nil` for a
    /// `nil` optional, also one passed through generic code as a `B` that is itself optional (`.some(nil)`).
    func requestBody<B: Encodable>(_ body: B?) -> (body: Data?, contentType: ContentType, error: EndpointError?)? {
        guard let body, (body as? any NoneTestable)?.isNone != true else { return nil }
        if let (data, contentType) = rawRequestBody(body) { return (data, contentType, nil) }
        do { return (try encode(body), .json, nil) } catch { return (nil, .json, .encoding(B.self, error)) }
    }
}

/// A `Data` or `String` request body, to send as it is rather than encode as JSON (a `Data` would become a base64
/// JSON string, a `String` a quoted one): `Data` as `application/octet-stream`, `String` as UTF-8
/// `text/plain; charset=utf-8`; `nil` for any other value. No JSON `Content-Type` for bytes that may not be JSON,
/// and an explicit one rather than none, which URLSession and libcurl fill in as a form
/// (`application/x-www-form-urlencoded`).
func rawRequestBody(_ body: some Encodable) -> (body: Data, contentType: ContentType)? {
    switch body {
    case let data as Data: (data, ContentType(rawValue: "application/octet-stream"))
    case let text as String: (Data(text.utf8), ContentType(rawValue: "text/plain; charset=utf-8"))
    default: nil
    }
}
