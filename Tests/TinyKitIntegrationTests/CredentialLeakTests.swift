import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// Credentials sent (`Authorization`, `Cookie`, `Proxy-Authorization`, a URL password, a secret query parameter) or
/// received (`Set-Cookie`) never appear in a description or error message of the stack.
@Suite(.timeLimit(.minutes(1))) struct CredentialLeakTests {
    static let secrets = [
        "s3cr3t-bearer", "s3cr3t-cookie", "s3cr3t-proxy", "s3cr3t-password", "s3cr3t-token", "s3cr3t-set",
    ]

    @Test(arguments: [401, 403, 500])
    func failuresNeverPrintCredentials(status: Int) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /private") { _ in
            .json(status, #"{"error":"denied"}"#, headers: ["Set-Cookie": "session=s3cr3t-set; HttpOnly"])
        }
        var components = try #require(URLComponents(url: server.url("/private"), resolvingAgainstBaseURL: false))
        components.user = "ada"
        components.password = "s3cr3t-password"
        components.queryItems = [URLQueryItem(name: "access_token", value: "s3cr3t-token")]
        let url = try #require(components.url)
        let headers = [
            "Authorization": "Bearer s3cr3t-bearer", "Cookie": "id=s3cr3t-cookie",
            "Proxy-Authorization": "s3cr3t-proxy",
        ]
        let endpoint = Endpoint<EmptyResponse>(json: .get, url: url, headers: headers)
        let transport = URLSessionTransport(configuration: .ephemeral)

        let error = await #expect(throws: HTTPTransportError.self) {
            try await bounded { try await transport.load(endpoint) }
        }
        let transportError = try #require(error)
        #expect(transportError.response?.statusCode == status)
        #expect(server.requests.first?.header("Authorization") == "Bearer s3cr3t-bearer")  // it was sent

        let api = TinyAPIError(transportError)
        let requestError = RequestError(transportError)
        let state = RequestState<Int>.failure(requestError)
        let texts = [
            transportError.description, String(reflecting: transportError), transportError.localizedDescription,
            api.description, api.localizedDescription, requestError.message, "\(state)", endpoint.description,
            String(reflecting: endpoint),
        ]
        for (index, text) in texts.enumerated() {
            for secret in Self.secrets {
                #expect(!text.contains(secret), "text \(index) shows \(secret): \(text)")
            }
        }
    }

    @Test func aTimeoutNeverPrintsCredentials() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let url = try #require(URL(string: server.baseURL.absoluteString + "/slow?seconds=5&api_key=s3cr3t-token"))
        let endpoint = Endpoint<EmptyResponse>(
            json: .get, url: url, headers: ["Authorization": "Bearer s3cr3t-bearer"], timeOutInterval: 0.5)
        let transport = URLSessionTransport(configuration: .ephemeral)

        let error = await #expect(throws: HTTPTransportError.self) {
            try await bounded { try await transport.load(endpoint) }
        }

        #expect(error?.code == .timedOut)
        let text = "\(String(describing: error)) \(TinyAPIError(try #require(error)))"
        #expect(!text.contains("s3cr3t"), "\(text)")
    }
}
