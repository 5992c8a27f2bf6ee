import Foundation
import TinyHTTPTransport

extension Endpoint {
    /// Creates an endpoint from its parts (TinyNetworking's initialiser).
    ///
    /// ```swift
    /// let endpoint = Endpoint<String>(.get, url: url, accept: .json, query: ["page": "2"]) { data, _ in
    ///     Result { String(decoding: data ?? Data(), as: UTF8.self) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The URL; its own query items are kept and `query` is appended after them.
    ///   - accept: The `Accept` header, if any.
    ///   - contentType: The `Content-Type` header, if any.
    ///   - body: The request body, if any.
    ///   - headers: More headers; they override `accept` and `contentType`.
    ///   - expectedStatusCode: Which status codes are accepted; 200–299 by default.
    ///   - timeOutInterval: The request's timeout in seconds.
    ///   - query: Query items appended to the URL, sorted by name, percent-encoded (`+`, `&`, `=` included).
    ///   - parse: Turns the body and response into the result.
    public init(
        _ method: HTTPMethod, url: URL, accept: ContentType? = nil, contentType: ContentType? = nil, body: Data? = nil,
        headers: [String: String] = [:], expectedStatusCode: @escaping @Sendable (Int) -> Bool = expected200to300,
        timeOutInterval: TimeInterval = 10, query: [String: String] = [:],
        parse: @escaping @Sendable (Data?, URLResponse?) -> Result<A, any Error>
    ) {
        var request = URLRequest(method: method, url: url.appendingQueryParameters(query))
        if let accept { request.httpAccept(accept) }
        if let contentType { request.httpContentType(contentType) }
        for (name, value) in headers { request.setHeader(name, value) }
        request.timeoutInterval = timeOutInterval
        request.httpBody = body
        self.init(request: request, expectedStatusCode: expectedStatusCode, parse: parse)
    }

    /// Creates an endpoint whose parse function looks at the body only (TinyNetworking's custom parsing).
    ///
    /// ```swift
    /// let text = Endpoint<String>(.get, url: url) { data in
    ///     Result { String(decoding: data ?? Data(), as: UTF8.self) }
    /// }
    /// ```
    ///
    /// The parameters are those of
    /// ``init(_:url:accept:contentType:body:headers:expectedStatusCode:timeOutInterval:query:parse:)-(_,_,_,_,_,_,_,_,_,(Data?,URLResponse?)->Result<A,Error>)``.
    public init(
        _ method: HTTPMethod, url: URL, accept: ContentType? = nil, contentType: ContentType? = nil, body: Data? = nil,
        headers: [String: String] = [:], expectedStatusCode: @escaping @Sendable (Int) -> Bool = expected200to300,
        timeOutInterval: TimeInterval = 10, query: [String: String] = [:],
        parse: @escaping @Sendable (Data?) -> Result<A, any Error>
    ) {
        self.init(
            method, url: url, accept: accept, contentType: contentType, body: body, headers: headers,
            expectedStatusCode: expectedStatusCode, timeOutInterval: timeOutInterval, query: query
        ) { data, _ in parse(data) }
        parseWithoutResponse = { data, _ in parse(data) }
    }
}

extension Endpoint where A == Void {
    /// Creates an endpoint whose response body is ignored: it succeeds with `()` for any accepted status code.
    ///
    /// ```swift
    /// let ping = Endpoint<()>(.post, url: pingURL)
    /// ```
    ///
    /// The parameters are those of
    /// ``init(_:url:accept:contentType:body:headers:expectedStatusCode:timeOutInterval:query:parse:)-(_,_,_,_,_,_,_,_,_,(Data?,URLResponse?)->Result<A,Error>)``.
    public init(
        _ method: HTTPMethod, url: URL, accept: ContentType? = nil, contentType: ContentType? = nil, body: Data? = nil,
        headers: [String: String] = [:], expectedStatusCode: @escaping @Sendable (Int) -> Bool = expected200to300,
        timeOutInterval: TimeInterval = 10, query: [String: String] = [:]
    ) {
        self.init(
            method, url: url, accept: accept, contentType: contentType, body: body, headers: headers,
            expectedStatusCode: expectedStatusCode, timeOutInterval: timeOutInterval, query: query
        ) { _ in .success(()) }
    }
}
