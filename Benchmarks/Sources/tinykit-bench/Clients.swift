import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import TinyAsyncHTTPClientTransport
import TinyKit

/// The element of the JSON arrays served (scripts/bench.sh writes the same shape).
struct User: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var username: String
    var email: String
    var active: Bool

    static func list(count: Int) -> [User] {
        (1...max(count, 1)).map { id in
            User(id: id, name: "User \(id)", username: "user\(id)", email: "user\(id)@example.com", active: true)
        }
    }
}

/// One way of loading `[User]` from a URL. Each concurrent worker gets its own load function from `makeLoad`.
struct Client: Sendable {
    /// The HTTP client underneath: each TinyKit client is measured against the raw client of its library.
    enum Library: Sendable { case urlSession, asyncHTTPClient }

    let name: String
    var library = Library.urlSession
    /// Whether this is the raw client of its library (a baseline).
    var isRaw = false
    let makeLoad: @Sendable () -> @Sendable () async throws -> [User]
    /// Called after the last request: shuts down what the client created.
    var close: @Sendable () async throws -> Void = {}

    /// The baseline: `URLSession.data(for:)` and `JSONDecoder`, nothing else.
    static func raw(_ url: URL, configuration: URLSessionConfiguration) -> Client {
        let session = URLSession(configuration: configuration)
        let request = jsonRequest(url)
        let decoder = JSONDecoder()
        return Client(name: "raw URLSession + JSONDecoder", isRaw: true) {
            {
                let (data, response) = try await session.data(for: request)
                guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
                    throw URLError(.badServerResponse)
                }
                return try decoder.decode([User].self, from: data)
            }
        }
    }

    /// `transport.load(Endpoint<[User]>)` through a `URLSessionTransport` (or, in process, an `AnsweringTransport`).
    static func endpoint(_ url: URL, transport: some HTTPTransport) -> Client {
        let endpoint = Endpoint<[User]>(json: .get, url: url)
        return Client(name: "Endpoint + URLSessionTransport") {
            { try await transport.load(endpoint) }
        }
    }

    /// TinyNetworking's `session.load(Endpoint<[User]>)` on a `URLSession` built as the raw client's is: the same
    /// send path as `URLSessionTransport`, through the session TinyKit pairs with it.
    static func sessionLoad(_ url: URL, configuration: URLSessionConfiguration) -> Client {
        let session = URLSession(configuration: configuration)
        let endpoint = Endpoint<[User]>(json: .get, url: url)
        return Client(name: "Endpoint + URLSession.load") {
            { try await session.load(endpoint) }
        }
    }

    /// The baseline of `AsyncHTTPClientTransport`: `HTTPClient.execute`, `body.collect` and `JSONDecoder`, on a client
    /// of its own configured like `AsyncHTTPClientTransport.sharedClient` (`.tinyKit`), shut down by `close`.
    static func rawAsyncHTTPClient(_ url: URL) -> Client {
        let client = benchmarkHTTPClient()
        var accepting = HTTPClientRequest(url: url.absoluteString)
        accepting.headers.add(name: "Accept", value: "application/json")
        let request = accepting
        let decoder = JSONDecoder()
        return Client(name: "raw AsyncHTTPClient + JSONDecoder", library: .asyncHTTPClient, isRaw: true) {
            {
                let response = try await client.execute(request, timeout: .seconds(60))
                guard (200..<300).contains(response.status.code) else { throw URLError(.badServerResponse) }
                let body = try await response.body.collect(
                    upTo: AsyncHTTPClientTransport.defaultMaximumResponseBodySize)
                return try decoder.decode([User].self, from: body)
            }
        } close: {
            try await client.shutdown()
        }
    }

    /// `transport.load(Endpoint<[User]>)`, as `endpoint(_:transport:)`, through an `AsyncHTTPClientTransport` on a
    /// client of its own (`.tinyKit`), shut down by `close`.
    static func asyncHTTPClientTransport(_ url: URL) -> Client {
        let client = benchmarkHTTPClient()
        let transport = AsyncHTTPClientTransport(client: client)
        let endpoint = Endpoint<[User]>(json: .get, url: url)
        return Client(name: "Endpoint + AsyncHTTPClientTransport", library: .asyncHTTPClient) {
            { try await transport.load(endpoint) }
        } close: {
            try await client.shutdown()
        }
    }

    /// `TinyAPIClient.request` of a `TinyAPIEndpoint`, through a `URLSessionTransport`.
    static func apiClient(_ url: URL, transport: any HTTPTransport) -> Client {
        let client = TinyAPIClient(transport: transport)
        let endpoint = UsersAPI(url: url)
        return Client(name: "TinyAPIClient.request") {
            { try await client.request(endpoint, as: [User].self) }
        }
    }

    /// `StatefulEndpoint.load()`, awaiting the success its observer receives on the main actor. Each worker has its
    /// own stateful endpoint (a load cancels the load in flight of the same instance).
    static func stateful(_ url: URL, transport: any HTTPTransport) -> Client {
        let endpoint = Endpoint<[User]>(json: .get, url: url)
        return Client(name: "StatefulEndpoint.load") {
            let reloader = Reloader(StatefulEndpoint(endpoint: endpoint, transport: transport))
            return { try await reloader.reload() }
        }
    }
}

extension Client {
    /// `StatefulEndpoint.load()` of a value it already has, from `/revalidate/` + the file of `url`, where nginx sends
    /// an ETag: each reload is a conditional request answered `304 Not Modified`, so no body comes and nothing is
    /// decoded. Its ratio to raw URLSession's full load is what revalidation saves.
    static func revalidating(_ url: URL, transport: any HTTPTransport) -> Client {
        let revalidated = url.deletingLastPathComponent().appendingPathComponent("revalidate")
            .appendingPathComponent(url.lastPathComponent)
        let endpoint = Endpoint<[User]>(json: .get, url: revalidated)
        return Client(name: "StatefulEndpoint.load, revalidated (304)") {
            let reloader = Reloader(StatefulEndpoint(endpoint: endpoint, transport: transport))
            return { try await reloader.reload() }
        }
    }
}

/// A `TinyAPIEndpoint` for one URL.
struct UsersAPI: TinyAPIEndpoint {
    let baseURL: String
    let path: String
    var method: HTTPMethod { .GET }

    init(url: URL) {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        path = components?.path ?? ""
        components?.path = ""
        baseURL = components?.string ?? url.absoluteString
    }
}

/// Reloads a `StatefulEndpoint` and waits for the result, as a screen observing it would see it.
@MainActor final class Reloader {
    nonisolated let endpoint: StatefulEndpoint<[User]>
    private var waiting: CheckedContinuation<[User], any Error>?
    private var isObserving = false

    nonisolated init(_ endpoint: StatefulEndpoint<[User]>) { self.endpoint = endpoint }

    func reload() async throws -> [User] {
        if !isObserving {
            isObserving = true
            // Observing starts a load; the first load() below replaces it.
            endpoint.observe(owner: self) { reloader, state in reloader.received(state) }
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting = continuation
            endpoint.load()
        }
    }

    private func received(_ state: RequestState<[User]>) {
        let result: Result<[User], any Error>
        switch state {
        case .success(let users): result = .success(users)
        case .failure(let error): result = .failure(error)
        case .idle, .loading: return
        }
        let continuation = waiting
        waiting = nil
        continuation?.resume(with: result)
    }
}

private func jsonRequest(_ url: URL) -> URLRequest {
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    return request
}

/// The session configuration both the raw client and the TinyKit transport use: no cache, so every request reaches
/// the server.
func benchmarkConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return configuration
}

/// A client configured as `AsyncHTTPClientTransport.sharedClient` is, on AsyncHTTPClient's default event loop group.
func benchmarkHTTPClient() -> HTTPClient {
    HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .tinyKit)
}
