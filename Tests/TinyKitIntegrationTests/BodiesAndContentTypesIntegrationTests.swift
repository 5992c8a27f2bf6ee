import Foundation
import Testing
import TinyKit
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request bodies, response content types and paths over `URLSessionTransport` and a real HTTP server: what is sent
/// is what was given, and what is decoded is what was asked for.
@Suite struct BodiesAndContentTypesIntegrationTests {
    let transport = URLSessionTransport(configuration: .ephemeral)
    static let bytes = Data([0x00, 0xFF, 0x7B, 0x22, 0x0D, 0x0A])

    // MARK: Absolute paths

    @Test func anAbsoluteURLAsAPathIsRefusedAndNothingIsSentAnywhere() async throws {
        let server = try await TestServer.start()
        let other = try await TestServer.start()
        defer {
            server.stop()
            other.stop()
        }
        let client = TinyAPIClient(transport: transport)
        let absolute = other.url("/admin").absoluteString

        let error = try await #require(throws: TinyAPIError.self) {
            try await bounded {
                try await client.get(from: server.baseURL.absoluteString, path: absolute, as: EmptyResponse.self)
            }
        }

        #expect(error == .invalidURL)
        guard case .invalidURL(let named, let reason) = error.underlyingError as? EndpointError else {
            Issue.record("expected EndpointError.invalidURL, got \(error)")
            return
        }
        #expect(named == absolute)
        #expect(reason.contains("absolute URL"))
        #expect(server.requests.isEmpty && other.requests.isEmpty)
    }
}
