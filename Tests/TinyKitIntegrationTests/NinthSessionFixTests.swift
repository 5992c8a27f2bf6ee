import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// Known bugs left by earlier reviews, fixed in the ninth session: what needs a live transport to show.
@Suite(.timeLimit(.minutes(1))) struct NinthSessionFixTests {
    /// MockTransport.swift `send`: a route answering a status no live transport hands over (an interim `1xx`, a
    /// status of other than three digits) answered with it, so a test could pass against an answer the app never
    /// gets. The mock now answers a status exactly when `URLSessionTransport` does, from a loopback server whose
    /// status line says it: an interim `1xx` and `099` or `1000` fail both, `101` and `600`–`999` (no status of the
    /// RFC, but three digits) both hand over. Seen on Linux; URLSession on Apple platforms was not checked.
    @Test(arguments: ["100", "103", "199", "099", "1000", "101", "200", "599", "600", "999"])
    func theMockAnswersAStatusExactlyWhenURLSessionDoes(status: String) async throws {
        let head = "HTTP/1.1 \(status) Status\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbody"
        let server = try RawSocketServer.start([.send(Data(head.utf8))])
        defer { server.stop() }
        let mock = MockTransport()
        mock.register(.get, "/status", .status(Int(status) ?? 0, body: Data("body".utf8)))
        let request = URLRequest(url: server.url("/status"), timeoutInterval: 5)
        /// The status `transport` answered `request` with, `nil` when it failed.
        func answer(of transport: some HTTPTransport) async -> Int? {
            try? await transport.send(request).1.statusCode
        }

        let live = await answer(of: URLSessionTransport(configuration: .ephemeral))
        let mocked = await answer(of: mock)
        withKnownIssue("URLSession on Apple platforms was not checked", isIntermittent: true) {
            #expect(mocked == live)
        } when: {
            !onFoundationNetworking
        }
        #expect(mocked == ([101, 200, 599, 600, 999].contains(Int(status) ?? 0) ? Int(status) : nil))
    }
}
