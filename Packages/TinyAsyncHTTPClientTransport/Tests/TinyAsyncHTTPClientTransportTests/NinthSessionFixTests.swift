import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

@Suite(.timeLimit(.minutes(1))) struct NinthSessionFixTests {
    /// `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header) is no credential, yet the redirect rule
    /// both transports share dropped it to another origin because its name holds `key`: a `POST` a `307` sent
    /// elsewhere went without it, and a retry there could charge twice. Both transports keep it now, and still drop
    /// the credentials.
    @Test(arguments: [false, true])
    func aPOSTRedirectedToAnotherOriginKeepsItsIdempotencyKey(ahc: Bool) async throws {
        let (api, payments) = (try await TestServer.start(), try await TestServer.start())
        defer {
            api.stop()
            payments.stop()
        }
        await payments.route("POST /charges") { _ in .json(200, "{}") }
        await api.route("POST /charges", response: .redirect(to: payments.url("/charges").absoluteString, status: 307))
        let transport = ahc ? AsyncHTTPClientTransport.shared : URLSessionTransport.shared as any HTTPTransport
        var request = URLRequest(method: .post, url: api.url("/charges"))
        request.httpBody = Data(#"{"amount":100}"#.utf8)
        request.setValue("ik-42", forHTTPHeaderField: "Idempotency-Key")
        request.setValue("s3cr3t", forHTTPHeaderField: "X-API-Key")

        _ = try await bounded(seconds: 30) { [request] in try await transport.send(request) }

        let landed = try #require(payments.requests.first)
        #expect(landed.header("Idempotency-Key") == "ik-42")
        #expect(landed.header("X-API-Key") == nil)
    }
}
