import Foundation
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MockTransport {
    /// A request as a ``MockTransport`` received it.
    public struct RecordedRequest: Sendable {
        /// The request itself.
        public let request: URLRequest
        /// Its method (`GET` when the request names none).
        public var method: HTTPMethod { HTTPMethod(rawValue: request.httpMethod ?? "GET") }
        /// Its URL.
        public var url: URL? { request.url }
        /// Its header fields.
        public var headers: [String: String] { request.allHTTPHeaderFields ?? [:] }
        /// Its body, if it has one in `httpBody`.
        public var body: Data? { request.httpBody }

        /// Records `request`.
        public init(_ request: URLRequest) { self.request = request }

        /// The value of the header field `name`, compared case-insensitively.
        public func header(_ name: String) -> String? { request.value(forHTTPHeaderField: name) }
    }
}
