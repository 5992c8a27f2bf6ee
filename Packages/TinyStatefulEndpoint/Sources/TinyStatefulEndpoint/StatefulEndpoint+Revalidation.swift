import Foundation
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint's last good answer: its value, the response whose `ETag` and `Last-Modified` revalidate it, and how
/// long it stays fresh. `StatefulEndpoint` and `EndpointCache` each keep one, and change it only with `fetch`.
struct Kept<A: Sendable>: Sendable {
    var value: A
    /// The response of the last `200`.
    var response: HTTPURLResponse
    /// When it was loaded or last revalidated, on its owner's `stopwatch`; `nil` for a stored one, which is stale.
    var loadedAt: Duration? = nil
    /// How long it stays fresh after `loadedAt`: the owner's maximum age, else what the server said; `nil`: forever.
    var lifetime: Duration? = nil

    func isFresh(now: Duration) -> Bool { loadedAt.map { at in lifetime.map { now - at < $0 } ?? true } ?? false }
}

/// The time elapsed on `clock` since this call, each time the result is called.
func stopwatch(_ clock: some Clock<Duration>) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
}

/// The load of `StatefulEndpoint` and `EndpointCache`: conditional requests, and freshness from the response.
extension Endpoint where A: Sendable {
    /// Loads `endpoint`, off the main actor. With a `kept` value, the request asks whether it changed (its
    /// `ETag` as `If-None-Match`, its `Last-Modified` as `If-Modified-Since`), and a `304` keeps it undecoded.
    /// Returns what to keep, fresh for `maximumAge` (else as the response says) from `now()`, and the new body
    /// (`nil` after a `304`).
    func fetch(
        revalidating kept: Kept<A>?, maximumAge: Duration?, with transport: any HTTPTransport,
        now: @Sendable () -> Duration
    ) async throws -> (kept: Kept<A>, body: Data?) {
        if let requestError { throw requestError }
        var request = self.request
        for (validator, condition) in [("ETag", "If-None-Match"), ("Last-Modified", "If-Modified-Since")] {
            guard let value = kept?.response.value(forHTTPHeaderField: validator) else { continue }
            request.setValue(value, forHTTPHeaderField: condition)
            // URLSession's own cache must neither answer this request nor turn its `304` into a cached `200`.
            request.cachePolicy = .reloadIgnoringLocalCacheData
        }
        let (body, response) = try await transport.send(request)
        if var kept, response.statusCode == 304 {
            // A 304 that says nothing of freshness leaves it to the response it confirms.
            kept.lifetime = maximumAge ?? response.freshnessLifetime ?? kept.response.freshnessLifetime
            kept.loadedAt = now()
            return (kept, nil)
        }
        try validateStatus(response: response, body: body, request: request, expectedStatusCode: expectedStatusCode)
        let lifetime = maximumAge ?? response.freshnessLifetime
        return (
            Kept(value: try parse(body, response).get(), response: response, loadedAt: now(), lifetime: lifetime), body
        )
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
