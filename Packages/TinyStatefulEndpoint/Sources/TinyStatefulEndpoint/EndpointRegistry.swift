import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

/// Hands out one ``StatefulEndpoint`` per request, so every part of an app that asks for the same endpoint shares
/// one instance, one load and one state, without a singleton of your own.
///
/// ```swift
/// let registry = EndpointRegistry(transport: transport)
/// let a = registry.statefulEndpoint(for: api.get())
/// let b = registry.statefulEndpoint(for: api.get())  // the same instance as `a`
/// ```
///
/// Two endpoints are the same when their value type and these parts of their requests are equal: the HTTP method,
/// the absolute URL (its fragment, never sent, aside; its scheme and host in any case, and a default port the same as
/// none: `https://API.example.com:443/x` is `https://api.example.com/x`), the body, and the values of the key headers:
/// by default `Accept`, `Accept-Language`, `Content-Type` and every header `HTTPRedaction.default` hides (`Cookie`,
/// and those whose names read as credentials: `Authorization`, `X-API-Key`, an API's own `Private-Token`…), else those
/// named in `keyHeaders:` (names compare case-insensitively). The header values are kept in memory as they are, not
/// hashed, so two requests whose key headers differ never share an instance: by default, requests with different
/// credentials (in a header or the URL) never do. A `keyHeaders:` that leaves a credential header out lets requests
/// that differ only in that header share one instance, the first one's response included.
/// The first endpoint registered for a key is the one loaded; a later endpoint with the same key but another parse
/// function gets the first instance.
///
/// The registry keeps its instances until ``removeAll()`` or ``remove(_:)``. ``shared`` is a convenience for apps;
/// tests create their own registry with a mock transport. It may be used from any thread: the instances it hands
/// out live on the main actor, but creating one is not.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public final class EndpointRegistry: Sendable {
    /// A registry for the whole app, loading through the live `URLSession` transport.
    public static let shared = EndpointRegistry()

    /// The key headers, lower-cased; `nil`: the negotiated ones and the credentials.
    private let keyHeaders: Set<String>?
    private let transport: any HTTPTransport
    private let maximumAge: Duration?
    private let clock: any Clock<Duration>
    private let store: (any ResponseStore)?
    private let cancelsUnobservedLoadAfter: Duration?
    private let instances = Locked([[String]: any Sendable]())

    /// Creates an empty registry.
    ///
    /// - Parameters:
    ///   - transport: The transport of every instance it creates; the live `URLSessionTransport.shared` by default.
    ///   - maximumAge: The maximum age of every instance it creates; `nil`: the responses' `Cache-Control` or
    ///     `Expires` decide.
    ///   - keyHeaders: The headers whose values tell two requests apart (names compare case-insensitively); `nil`,
    ///     the default: `Accept`, `Accept-Language`, `Content-Type` and every credential header. Keep your API's
    ///     credential headers in a set of your own: a header left out is ignored, so requests that differ only in the
    ///     credentials it holds would share one instance, and the first one's response.
    ///   - store: Where every instance it creates keeps its last good response; `nil` for none.
    ///   - cancelsUnobservedLoadAfter: The grace period after which every instance it creates cancels a load nobody
    ///     observes any more (at least 0.1 s, at most about 95 years); `nil`, the default, lets every load finish.
    ///   - clock: The clock of every instance it creates.
    public init(
        transport: any HTTPTransport = URLSessionTransport.shared, maximumAge: Duration? = nil,
        keyHeaders: Set<String>? = nil,
        store: (any ResponseStore)? = nil, cancelsUnobservedLoadAfter: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.transport = transport
        self.maximumAge = maximumAge
        self.keyHeaders = keyHeaders.map { Set($0.map { $0.lowercased() }) }
        (self.store, self.cancelsUnobservedLoadAfter, self.clock) = (store, cancelsUnobservedLoadAfter, clock)
    }

    /// The shared instance for `endpoint`'s request, created on first use.
    public func statefulEndpoint<A: Sendable>(for endpoint: Endpoint<A>) -> StatefulEndpoint<A> {
        let key = self.key(for: endpoint)
        return instances.withLock { instances in
            if let instance = instances[key] as? StatefulEndpoint<A> { return instance }
            let instance = StatefulEndpoint(
                endpoint: endpoint, transport: transport, maximumAge: maximumAge, store: store,
                cancelsUnobservedLoadAfter: cancelsUnobservedLoadAfter, clock: clock)
            instances[key] = instance
            return instance
        }
    }

    /// Forgets the instance for `endpoint`'s request; the next ``statefulEndpoint(for:)`` creates a new one.
    public func remove<A>(_ endpoint: Endpoint<A>) {
        let key = key(for: endpoint)  // outside the lock, as in `statefulEndpoint(for:)`: it reads every header
        instances.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// Forgets every instance.
    public func removeAll() {
        instances.withLock { $0.removeAll() }
    }

    /// The value type, the method, the absolute URL (as `URL.key` spells it), the body (or the error
    /// that kept it from being encoded) and the key headers (names lower-cased, sorted) with their values, each an
    /// element of its own so that no separator can make two keys equal.
    func key<A>(for endpoint: Endpoint<A>) -> [String] {
        let request = endpoint.request
        let fields = request.allHTTPHeaderFields ?? [:]
        // By default, the negotiated fields and the credentials, as `FileResponseStore` keys its files.
        let keyHeaders =
            keyHeaders
            ?? Set(
                ["accept", "accept-language", "content-type"]
                    + FileResponseStore.hiddenNames(in: fields).map { $0.lowercased() })
        let headers = fields.map { ($0.key.lowercased(), $0.value) }
        return [
            "\(ObjectIdentifier(A.self))", request.method.rawValue, request.url?.key.absoluteString ?? "",
            // A body that failed to encode is no body in the request: its error keeps it apart from a bodiless one.
            endpoint.requestError.map { "unencodable: \($0)" } ?? request.httpBody?.base64EncodedString() ?? "",
        ] + headers.filter { keyHeaders.contains($0.0) }.sorted { $0 < $1 }.flatMap { [$0.0, $0.1] }
    }
}
