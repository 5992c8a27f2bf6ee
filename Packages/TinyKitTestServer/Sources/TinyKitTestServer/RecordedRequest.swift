import Foundation

/// A request as the ``TestServer`` received it: method, path, query, headers and body.
public struct RecordedRequest: Sendable, Codable, Equatable {
    /// One `name=value` pair of the query, percent-decoded (a `+` stays a `+`).
    public struct QueryItem: Sendable, Codable, Equatable {
        /// The decoded name.
        public var name: String
        /// The decoded value (empty when the item had none).
        public var value: String

        /// Creates a query item.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The method, for example `"GET"`.
    public var method: String
    /// The path, percent-decoded, for example `"/users/1"`.
    public var path: String
    /// The query exactly as it arrived, still percent-encoded (empty when there was none).
    public var rawQuery: String
    /// The query items in the order they arrived, percent-decoded.
    public var query: [QueryItem]
    /// The headers, names lower-cased. A header sent twice keeps only its last value (FlyingFox keeps no other).
    public var headers: [String: String]
    /// The body bytes (empty when there were none).
    public var body: Data

    /// Creates a recorded request.
    public init(
        method: String, path: String, rawQuery: String = "", query: [QueryItem] = [], headers: [String: String] = [:],
        body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name` (case-insensitive), if it was sent.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The first value of the query item `name`, if it was sent.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as JSON.
    public func decodeBody<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(type, from: body)
    }
}
