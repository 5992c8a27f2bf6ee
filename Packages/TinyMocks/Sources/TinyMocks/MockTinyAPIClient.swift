import Foundation
import TinyEndpoint

/// tinyAPI's mock client: a `TinyAPIClient` over a ``MockTransport``, so it builds requests, checks status codes,
/// decodes and throws `TinyAPIError` exactly as the live client does, but answers from mock JSON files and routes.
///
/// ```swift
/// // GET /users → mock_get_users.json, POST /users → mock_post_users.json, GET /users/1 → mock_get_users_1.json
/// let mockClient = MockTinyAPIClient()
/// let users = try await mockClient.request(UserEndpoint.list, as: [User].self)
/// ```
///
/// Files are named after the endpoint's `path` (see ``MockFiles``): the path of
/// its `baseURL` (`/v1` in `https://api.example.com/v1`) is taken off, and so are routes registered on
/// ``transport`` written without it. The presets read the app bundle (`Bundle.main`), as tinyAPI does; pass
/// `files:` to read elsewhere, for example a test target's `Bundle.module`:
///
/// ```swift
/// let client = MockTinyAPIClient(files: .bundle(.module, subdirectory: "Fixtures"))
/// ```
///
/// The presets are computed: each access makes a new client with its own recording and routes, so tests never
/// share state. Keep the client in a variable to register routes or read its ``transport``'s requests.
public struct MockTinyAPIClient: APIClientProtocol, Sendable {
    /// The mock transport every request goes through: register routes on it, read its recorded requests.
    public let transport: MockTransport
    /// The live client over ``transport``, with the decoder for response bodies and the encoder for the bodies of
    /// `post` and `send`; each request goes through a copy over a view of the mock (see `client(for:)`).
    let client: TinyAPIClient

    /// Creates a mock client over `transport`.
    public init(transport: MockTransport, decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()) {
        self.transport = transport
        client = TinyAPIClient(transport: transport, decoder: decoder, encoder: encoder)
    }

    /// Creates a mock client reading `files` (the app bundle by default), waiting `delay` (none by default) on
    /// `clock` before each answer.
    public init(
        files: MockFiles = .bundle(.main), delay: Duration = .zero, clock: any Clock<Duration> = ContinuousClock(),
        decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()
    ) {
        self.init(
            transport: MockTransport(files: files, delay: delay, clock: clock), decoder: decoder, encoder: encoder)
    }

    /// Answers the endpoint from its mock and decodes the JSON as `T`, as `TinyAPIClient` does.
    ///
    /// - Throws: `TinyAPIError`; a missing mock is a `networkError` whose message (and ``MockError/init(_:)``)
    ///   names the file looked for, the directory and the routes.
    public func request<T: Decodable & Sendable>(_ endpoint: any TinyAPIEndpoint, as type: T.Type) async throws -> T {
        try await client(for: endpoint.baseURL).request(endpoint, as: type)
    }

    /// Answers the endpoint from its mock and returns the body as it is.
    ///
    /// - Throws: `TinyAPIError`, as ``request(_:as:)``.
    public func requestData(_ endpoint: any TinyAPIEndpoint) async throws -> Data {
        try await client(for: endpoint.baseURL).requestData(endpoint)
    }

    /// Encodes a request body with the client's encoder.
    ///
    /// - Throws: `TinyAPIError` of kind `encodingError`.
    public func encode<Body: Encodable>(body: Body) throws -> Data {
        try client.encode(body: body)
    }

    /// ``client`` over a view of this mock that takes the path of `baseURL` off request paths.
    private func client(for baseURL: String) -> TinyAPIClient {
        var client = client
        client.transport = transport.stripping(basePath: URLComponents(string: baseURL)?.percentEncodedPath ?? "")
        return client
    }
}
