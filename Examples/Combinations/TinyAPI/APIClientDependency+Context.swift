import TinyEndpoint
import TinyMocks

extension APIClientDependency {
    /// The dependency an example runs with: tinyAPI's `MockTinyAPIClient` on the example mocks (`--mocks`),
    /// otherwise a `TinyAPIClient` on the live transport; both talk to the context's base URL.
    init(for context: ExampleContext) {
        let client: any APIClientProtocol =
            if let mock = context.transport as? MockTransport {
                MockTinyAPIClient(transport: mock)
            } else {
                TinyAPIClient(transport: context.transport)
            }
        self.init(client: client, baseURL: context.baseURL.absoluteString)
    }
}
