import Foundation
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
/// the absolute URL, the body, and the values of the headers in ``keyHeaders`` (by default `Accept`,
/// `Accept-Language`, `Authorization`, `Content-Type` and `Cookie`; names compare case-insensitively). The header
/// values are kept in memory as they are, not hashed, so two different credentials can never share an instance.
/// The first endpoint registered for a key is the one loaded; a later endpoint with the same key but another parse
/// function gets the first instance.
///
/// The registry keeps its instances until ``removeAll()`` or ``remove(_:)``. ``shared`` is a convenience for apps;
/// tests create their own registry with a mock transport.
public final class EndpointRegistry: Sendable {
    /// A registry for the whole app, loading through the live `URLSession` transport.
    public static let shared = EndpointRegistry()

    /// The header names (lower-cased) whose values tell two requests apart.
    public let keyHeaders: Set<String>
    /// The transport of every instance this registry creates.
    public let transport: any HTTPTransport
    /// The maximum age given to every instance this registry creates (see ``StatefulEndpoint/maximumAge``).
    public let maximumAge: TimeInterval?

    private let now: @Sendable () -> Date
    private let instances = Locked([Key: any Sendable]())

    /// The headers that are part of the key by default.
    public static let defaultKeyHeaders: Set<String> = [
        "Accept", "Accept-Language", "Authorization", "Content-Type", "Cookie",
    ]

    /// Creates an empty registry.
    ///
    /// - Parameters:
    ///   - transport: The transport of every instance it creates; the live `URLSessionTransport.shared` by default.
    ///   - maximumAge: The maximum age of every instance it creates; `nil` for none.
    ///   - keyHeaders: The headers whose values tell two requests apart.
    ///   - now: The clock of every instance it creates.
    public init(
        transport: any HTTPTransport = URLSessionTransport.shared, maximumAge: TimeInterval? = nil,
        keyHeaders: Set<String> = EndpointRegistry.defaultKeyHeaders, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.transport = transport
        self.maximumAge = maximumAge
        self.keyHeaders = Set(keyHeaders.map { $0.lowercased() })
        self.now = now
    }

    /// The shared instance for `endpoint`'s request, created on first use.
    public func statefulEndpoint<A: Sendable>(for endpoint: Endpoint<A>) -> StatefulEndpoint<A> {
        let key = self.key(for: endpoint)
        return instances.withLock { instances in
            if let existing = instances[key] as? StatefulEndpoint<A> { return existing }
            let created = StatefulEndpoint(endpoint: endpoint, transport: transport, maximumAge: maximumAge, now: now)
            instances[key] = created
            return created
        }
    }

    /// Forgets the instance for `endpoint`'s request; the next ``statefulEndpoint(for:)`` creates a new one.
    public func remove<A>(_ endpoint: Endpoint<A>) {
        let key = self.key(for: endpoint)
        instances.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// Forgets every instance.
    public func removeAll() {
        instances.withLock { $0.removeAll() }
    }

    /// How many instances the registry holds.
    public var count: Int { instances.withLock { $0.count } }

    struct Key: Hashable {
        var type: ObjectIdentifier
        var method: String
        var url: String
        var body: Data?
        var headers: [String: String]
    }

    func key<A>(for endpoint: Endpoint<A>) -> Key {
        let request = endpoint.request
        var headers: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] where keyHeaders.contains(name.lowercased()) {
            headers[name.lowercased()] = value
        }
        return Key(
            type: ObjectIdentifier(A.self), method: (request.httpMethod ?? "GET").uppercased(),
            url: request.url?.absoluteString ?? "", body: request.httpBody, headers: headers)
    }
}
