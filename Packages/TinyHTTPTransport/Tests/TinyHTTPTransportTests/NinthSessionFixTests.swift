import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct NinthSessionFixTests {
    #if canImport(Glibc)
        /// A `POST` answered by a redirect (a login form answered `303 See Other`) is followed at once, through
        /// `URLSessionTransport` and through a session without a delegate. A review saw it wait until its timeout
        /// most times, and blamed FoundationNetworking; but the test server it used read a request up to a blank line
        /// at the end of what had come, so it never answered a `POST` whose body came with its head. Each status,
        /// repeated, with a short timeout: a hang fails in 3 s.
        @Test(arguments: [301, 302, 303, 307, 308])
        func aPOSTAnsweredByARedirectIsFollowedAtOnce(status: Int) async throws {
            let server = try ScriptedHTTPServer { head in
                ScriptedHTTPServer.path(of: head) == "/form"
                    ? ScriptedHTTPServer.response(status, headers: ["Location: /after"])
                    : ScriptedHTTPServer.response(200, body: "landed")
            }
            var request = URLRequest(method: .post, url: try server.url("/form"))
            request.httpBody = Data("name=Ada".utf8)
            request.timeoutInterval = 3
            let transports: [any HTTPTransport] = [
                URLSessionTransport(configuration: .ephemeral), URLSession(configuration: .ephemeral),
            ]

            for transport in transports {
                for _ in 0..<10 {
                    let (body, response) = try await transport.send(request)

                    #expect(response.statusCode == 200)
                    #expect(String(decoding: body, as: UTF8.self) == "landed")
                }
            }
            #expect(server.paths.count == 40)
        }
    #endif
}
