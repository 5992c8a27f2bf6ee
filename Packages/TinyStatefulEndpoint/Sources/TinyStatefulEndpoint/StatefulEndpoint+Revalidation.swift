import Foundation
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The load of `StatefulEndpoint` and `EndpointCache`: conditional requests, and freshness from the response.
extension Endpoint where A: Sendable {
    /// A value and the response it came from.
    typealias Loaded = (value: A, response: HTTPURLResponse)
    /// What a load got: the value, its response, and the body when it is new (`nil` after a `304`).
    typealias Fetched = (value: A, response: HTTPURLResponse, body: Data?)

    /// Loads `endpoint`, off the main actor. With a `prior` value, the request asks whether it changed (its
    /// `ETag` as `If-None-Match`, its `Last-Modified` as `If-Modified-Since`), and a `304` keeps it undecoded.
    func fetch(revalidating prior: Loaded?, with transport: any HTTPTransport) async throws -> Fetched {
        if let requestError { throw requestError }
        var request = self.request
        for (validator, condition) in [("ETag", "If-None-Match"), ("Last-Modified", "If-Modified-Since")] {
            guard let value = prior?.response.value(forHTTPHeaderField: validator) else { continue }
            request.setValue(value, forHTTPHeaderField: condition)
            // URLSession's own cache must neither answer this request nor turn its `304` into a cached `200`.
            request.cachePolicy = .reloadIgnoringLocalCacheData
        }
        let (body, response) = try await transport.send(request)
        if let prior, response.statusCode == 304 { return (prior.value, response, nil) }
        try validateStatus(response: response, body: body, request: request, expectedStatusCode: expectedStatusCode)
        return (try parse(body, response).get(), response, body)
    }
}

extension HTTPURLResponse {
    /// How long this response says it stays fresh: `.zero` for `Cache-Control: no-cache` (always revalidate), its
    /// `max-age` less its `Age`, else the time to its `Expires` (`.zero` when that is not a date); `nil` when it says
    /// nothing.
    var freshnessLifetime: Duration? {
        let directives = (value(forHTTPHeaderField: "Cache-Control") ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-cache") { return .zero }
        if let maxAge = directives.lazy.compactMap({ $0.hasPrefix("max-age=") ? Int64($0.dropFirst(8)) : nil }).first {
            let age = value(forHTTPHeaderField: "Age").flatMap { Int64($0) } ?? 0
            return .seconds(max(maxAge - age, 0))
        }
        guard value(forHTTPHeaderField: "Expires") != nil else { return nil }
        return duration(untilDateIn: "Expires") ?? .zero
    }
}
