import Foundation
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension StatefulEndpoint {
    /// A value and the response it came from.
    typealias Loaded = (value: A, response: HTTPURLResponse)
    /// What a load got: the value, its response, and the body when it is new (`nil` after a `304`).
    typealias Fetched = (value: A, response: HTTPURLResponse, body: Data?)

    /// Loads `endpoint`, off the main actor. With a `prior` value, the request asks whether it changed (its
    /// `ETag` as `If-None-Match`, its `Last-Modified` as `If-Modified-Since`), and a `304` keeps it undecoded.
    nonisolated static func fetch(
        _ endpoint: Endpoint<A>, revalidating prior: Loaded?, _ transport: any HTTPTransport
    ) async throws -> Fetched {
        if let error = endpoint.requestError { throw error }
        var request = endpoint.request
        for (validator, condition) in [("ETag", "If-None-Match"), ("Last-Modified", "If-Modified-Since")] {
            guard let value = prior?.response.value(forHTTPHeaderField: validator) else { continue }
            request.setValue(value, forHTTPHeaderField: condition)
            // URLSession's own cache must neither answer this request nor turn its `304` into a cached `200`.
            request.cachePolicy = .reloadIgnoringLocalCacheData
        }
        let (body, response) = try await transport.send(request)
        if let prior, response.statusCode == 304 { return (prior.value, response, nil) }
        try validateStatus(
            response: response, body: body, request: request, expectedStatusCode: endpoint.expectedStatusCode)
        return (try endpoint.parse(body, response).get(), response, body)
    }

    /// How long `response` says it stays fresh: `.zero` for `Cache-Control: no-cache` (always revalidate), its
    /// `max-age` less its `Age`, else the time to its `Expires` (`.zero` when that is not a date); `nil` when it says
    /// nothing.
    nonisolated static func lifetime(of response: HTTPURLResponse) -> Duration? {
        let directives = (response.value(forHTTPHeaderField: "Cache-Control") ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-cache") { return .zero }
        if let maxAge = directives.lazy.compactMap({ $0.hasPrefix("max-age=") ? Int64($0.dropFirst(8)) : nil }).first {
            let age = response.value(forHTTPHeaderField: "Age").flatMap { Int64($0) } ?? 0
            return .seconds(max(maxAge - age, 0))
        }
        guard response.value(forHTTPHeaderField: "Expires") != nil else { return nil }
        return response.duration(untilDateIn: "Expires") ?? .zero
    }
}
