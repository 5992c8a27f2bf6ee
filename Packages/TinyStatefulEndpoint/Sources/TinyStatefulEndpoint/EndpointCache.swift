import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

/// One endpoint's value shared by every caller, on any task and without the main actor: ``StatefulEndpoint``'s
/// de-duplication, freshness and revalidation for servers, where many request handlers read the same upstream API.
///
/// ```swift
/// let rates = EndpointCache(endpoint: upstream.rates(), transport: AsyncHTTPClientTransport.shared,
///                           maximumAge: .seconds(30))
/// // In each request handler:
/// let current = try await rates.value()
/// ```
///
/// - ``value()`` returns the value while it is fresh (``StatefulEndpoint/maximumAge``'s rules: `maximumAge`, else
///   the response's `Cache-Control: max-age` or `Expires`; forever when neither says); otherwise it loads, and every
///   caller that arrives meanwhile waits for that one load.
/// - A stale value of a `GET` or `HEAD` is revalidated with its `ETag` or `Last-Modified`: a `304` keeps it without
///   decoding. Other methods load again plainly.
/// - A failed load fails every caller waiting on it, and the next call tries again; the last value is kept for
///   revalidation but not returned once stale. A cancelled caller stops waiting at once (`CancellationError`); the
///   load goes on for the others, and its value is kept.
public actor EndpointCache<A: Sendable> {
    private let endpoint: Endpoint<A>
    private let transport: any HTTPTransport
    private let maximumAge: Duration?
    private let elapsed: @Sendable () -> Duration
    /// The last value, its response, and when it goes stale (on `elapsed`).
    private var kept: Kept<A>?
    private var inFlight: Task<A, any Error>?

    /// Creates a cache that loads `endpoint` through `transport` when first asked.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - transport: The transport every load goes through.
    ///   - maximumAge: How long a value is fresh; `nil`, the default, lets the response's headers decide.
    ///   - clock: The clock `maximumAge` is measured on; inject one in tests.
    public init(
        endpoint: Endpoint<A>, transport: any HTTPTransport, maximumAge: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        (self.endpoint, self.transport, self.maximumAge, elapsed) = (endpoint, transport, maximumAge, stopwatch(clock))
    }

    /// The fresh value, from memory or from the one load in flight (started if there is none).
    public func value() async throws -> A {
        if let kept, kept.isFresh(now: elapsed()) { return kept.value }
        let load = inFlight ?? Task { try await reload() }
        inFlight = load
        return try await load.valueUnlessCancelled
    }

    /// Loads (revalidating the last value), keeps the result and ends the load in flight.
    private func reload() async throws -> A {
        defer { inFlight = nil }
        let next = try await endpoint.fetch(revalidating: kept, maximumAge: maximumAge, with: transport, now: elapsed)
        kept = next.kept
        return next.kept.value
    }
}
