import Foundation
@_spi(TinyKit) import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

/// An endpoint's last good answer: its value, the response whose `ETag` and `Last-Modified` revalidate it, and how
/// long it stays fresh. `StatefulEndpoint` and `EndpointCache` each keep one: `fetch` makes and renews it, a
/// stored response restores it, and `clear()` drops it.
struct Kept<A: Sendable>: Sendable {
    var value: A
    /// The response of the last `200`.
    var response: HTTPURLResponse
    /// When it goes stale, on its owner's `stopwatch`: its freshness lifetime (the owner's maximum age, else what
    /// the server said) after it was loaded or last revalidated; `nil`: never; `.zero` (at once) for a stored one.
    var staleAt: Duration? = .zero

    func isFresh(now: Duration) -> Bool { staleAt.map { now < $0 } ?? true }
}

/// The time elapsed on `clock` since this call, each time the result is called.
func stopwatch(_ clock: some Clock<Duration>) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
}

/// The load of `StatefulEndpoint` and `EndpointCache`: conditional requests, and freshness from the response.
extension Endpoint where A: Sendable {
    /// The response `store` kept for this endpoint's request, decoded with its parse function: stale, to be
    /// revalidated by the next load.
    func restore(from store: any ResponseStore) async -> Kept<A>? {
        await store.restore(for: request) { Kept(value: try parse($0, $1).get(), response: $1) }
    }

    /// Loads `endpoint`, off the main actor. With a `kept` value, a `GET` or `HEAD` asks whether it changed (its
    /// `ETag` as `If-None-Match`, its `Last-Modified` as `If-Modified-Since`), and a `304` keeps it undecoded. Other
    /// methods reload plainly: on them `If-None-Match` means "only if nothing matches" (RFC 9110 §13.1.2), which a
    /// server answers `412` when nothing changed.
    /// Returns what to keep, fresh for `maximumAge` (else as the response says) from `now()`, and the new body
    /// (`nil` after a `304`).
    func fetch(
        revalidating kept: Kept<A>?, maximumAge: Duration?, with transport: any HTTPTransport,
        now: @Sendable () -> Duration
    ) async throws -> (kept: Kept<A>, body: Data?) {
        if let requestError { throw requestError }
        var request = self.request
        // Whether the request sent may carry validators, so that a `304` can confirm `kept`.
        var conditional = request.method == .get || request.method == .head
        for (validator, condition) in [("ETag", "If-None-Match"), ("Last-Modified", "If-Modified-Since")] {
            // A validator with CR or LF (a stored response's, edited) is not sent, as `setValue` dropped it on Linux.
            guard conditional, let value = kept?.response.value(forHTTPHeaderField: validator),
                !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D })
            else { continue }
            // Not `setValue(_:forHTTPHeaderField:)`: FoundationNetworking's costs about 25,000 instructions a field.
            request.setHeader(condition, value)
            // URLSession's own cache must neither answer this request nor turn its `304` into a cached `200`.
            request.cachePolicy = .reloadIgnoringLocalCacheData
        }
        var (body, response) = try await transport.send(request)
        // A 304 whose `ETag` is not the kept one's names another representation, which it must not confirm (a
        // server that heeds only `If-Modified-Since`): ask again, unconditionally.
        if conditional, response.statusCode == 304, let tag = response.opaqueTag, tag != kept?.response.opaqueTag {
            request = self.request
            request.cachePolicy = .reloadIgnoringLocalCacheData
            (body, response) = try await transport.send(request)
            conditional = false
        }
        // A 304 keeps `kept` undecoded; any other response (or a 304 with nothing kept) goes through the status check
        // and the parse of every load (`Endpoint.result`).
        let confirmed = conditional && response.statusCode == 304 ? kept : nil
        // Not `confirmed.map(\.value)`: a key path into a generic type is made at each call (10,000 instructions).
        let value = try confirmed?.value ?? result(data: body, response: response).get()
        var next = Kept(value: value, response: confirmed?.response.updated(by: response) ?? response)
        // Fresh for `maximumAge`, else as the response says (a 304 that says nothing: as the response it confirms,
        // counted from the 304's `Date`).
        next.staleAt = (maximumAge ?? next.response.freshnessLifetime).map { now() + $0 }
        return (next, confirmed == nil ? body : nil)
    }
}

extension HTTPURLResponse {
    /// How long this response says it stays fresh: `.zero` for `Cache-Control: no-cache` or `no-store` (always
    /// revalidate: a value kept in memory is a stored copy too) and for a `max-age` that is not `max-age=<seconds>`,
    /// its `max-age`, else the time to its `Expires` (`.zero` when that is not a date), either less its `Age`; `nil`
    /// when it says nothing.
    var freshnessLifetime: Duration? {
        let directives = cacheDirectives
        if directives.contains("no-cache") || directives.contains("no-store") { return .zero }
        let maxAge = directives.first { $0.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces) == "max-age" }
        // One that is not `max-age=<digits>` is stale (RFC 9111 §4.2.1), as an `Expires` that is not a date.
        let lifetime: Duration? =
            maxAge.map { .seconds($0.hasPrefix("max-age=") ? Self.deltaSeconds($0.dropFirst(8)) ?? 0 : 0) }
            ?? value(forHTTPHeaderField: "Expires").map { _ in duration(untilDateIn: "Expires") ?? .zero }
        // `Age` is looked up only for a lifetime to shorten: most responses say nothing.
        guard let lifetime else { return nil }
        return max(lifetime - .seconds(value(forHTTPHeaderField: "Age").flatMap(Self.deltaSeconds) ?? 0), .zero)
    }

    /// The directives of `Cache-Control`, lower-cased, each whole (`no-store`, `max-age=60`): what freshness and the
    /// response store read.
    var cacheDirectives: [String] {
        (value(forHTTPHeaderField: "Cache-Control") ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    /// A number of seconds as RFC 9111 §1.2.2 reads it: digits (quoted too, §5.2), 2^31 when too large for an Int64;
    /// `nil` when it is not one.
    static func deltaSeconds(_ text: some StringProtocol) -> Int64? {
        let text = text.trimmingCharacters(in: ["\""])
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text) ?? 1 << 31
    }

    /// The response a `304` confirmed, with the `304`'s header fields in place of its own (RFC 9111 §4.3.4): a new
    /// `ETag`, `Cache-Control`, `Expires` or `Date` counts from now on. `Content-Length`, `Content-Type` and
    /// `Content-Encoding` stay: the stored body was read with them, and a `304` has no body (RFC 9111 §3.2 lets a
    /// cache keep them). `Age` goes (the stored one is no longer the answer's age), and so does the `Date` when the
    /// `304` has none: it is dated when it came (RFC 9110 §6.6.1), so that an `Expires` counts from now, not from the
    /// old `Date` again.
    func updated(by notModified: HTTPURLResponse) -> HTTPURLResponse {
        let dated = notModified.value(forHTTPHeaderField: "Date") != nil
        let kept = fields.filter { $0.key.lowercased() != "age" && (dated || $0.key.lowercased() != "date") }
        let bodyFields: Set<String> = ["content-length", "content-type", "content-encoding"]
        let fields = kept.merging(notModified.fields.filter { !bodyFields.contains($0.key.lowercased()) }) { $1 }
        return url.flatMap { HTTPURLResponse(url: $0, statusCode: statusCode, httpVersion: nil, headerFields: fields) }
            ?? self
    }

    /// The `ETag` without its weakness (`W/`), as `ETag`s compare here: the same opaque tag, weak (`W/"x"`) or strong
    /// (`"x"`) on either side, names one representation, the weak comparison `If-None-Match` itself uses (RFC 9110
    /// §8.8.3.2). Looser than RFC 9111 §4.3.4 (a strong tag updates only the same strong tag) on purpose: nginx
    /// weakens the `ETag` of a body it gzips but sends the `304` with the strong one, and a strong match would answer
    /// every such `304` with a second, full request.
    var opaqueTag: Substring? { value(forHTTPHeaderField: "ETag")?.trimmingPrefix("W/") }

    /// Whether this response has `other`'s validators (`ETag`, `Last-Modified`): it is the answer they name. The
    /// `ETag`s compare as a `304` confirms one (``opaqueTag``): a `304` that confirmed `W/"1"` by `"1"` leaves the
    /// kept one `"1"`, another instance's `W/"1"`, for the same body.
    func hasValidators(of other: HTTPURLResponse) -> Bool {
        opaqueTag == other.opaqueTag
            && value(forHTTPHeaderField: "Last-Modified") == other.value(forHTTPHeaderField: "Last-Modified")
    }

    /// The header fields, as the strings they are (what a file keeps, what a `304` updates).
    var fields: [String: String] { allHeaderFields.reduce(into: [:]) { $0["\($1.key)"] = "\($1.value)" } }
}
