import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

/// Which failures the retry middleware sends again: the same failure must be retried (or not) whatever the platform
/// or the shape it reaches the middleware in.
@Suite(.timeLimit(.minutes(1))) struct RetryFailureClassificationTests {
    let policy = RetryPolicy(maxAttempts: 2, baseDelay: .seconds(1), jitter: 0)

    #if canImport(Glibc)
        /// `RetryPolicy` retries "connection lost" by default (`networkConnectionLost`), and on Apple platforms a
        /// connection closed in the middle of the body is URLError -1005, so a `GET` is sent again. On Linux
        /// FoundationNetworking reports it as URLError -1 ("transfer closed with 92 bytes remaining"; see
        /// PLATFORM-NOTES and HostileServerTests), which `URLSession+Send.swift` mapped to `.other` (only the empty
        /// reply, -1011, was mapped as the lost connection it is), and `RetryPolicy.isRetryable` found no retryable
        /// code in it: the same server failure was retried on iOS and given up at once on Linux. It is `cannotConnect`
        /// now, and retried.
        @Test func aConnectionClosedMidBodyIsRetriedLikeALostConnection() async throws {
            // A `200` that announces 100 bytes of body, sends 8 and closes: a server that crashed mid-response.
            let server = try ScriptedHTTPServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\":1,")
            let transport = URLSessionTransport(configuration: .ephemeral)
                .with(.retry(policy, clock: RecordingClock()))
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/items/1"))

            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(method: .get, url: url))
            }

            #expect(error?.body == nil, "no whole response: \(String(describing: error))")
            #expect(server.heads.count == 2, "\(String(describing: error))")
            #expect(error?.attempts == 2)
        }
    #endif

    /// A provider that could not fetch a credential because there was no network: from raw `URLSession` it throws
    /// the `URLError`; through a TinyKit transport (what `CredentialProvider`'s example does with
    /// `URLSessionTransport.shared`) an `HTTPTransportError` holding that `URLError`. The authorization middleware
    /// fails the request with `.other` and the provider's error as `underlyingError`. `RetryPolicy.isRetryable`
    /// looked one level deep only: the raw `URLError` was retried, the wrapped one (the same failure) never was.
    @Test(arguments: [false, true])
    func aProvidersFailureIsRetriedWhateverTransportItFetchedWith(wrapped: Bool) async throws {
        struct OfflineProvider: CredentialProvider {
            let wrapped: Bool
            func credential() async throws -> String? {
                let offline = URLError(.notConnectedToInternet)
                guard wrapped else { throw offline }
                let tokenURL = URL(fileURLWithPath: "/token")
                throw HTTPTransportError(mapping: offline, request: URLRequest(method: .post, url: tokenURL))
            }
            func refreshCredential(rejected: String?) async throws -> String { "Bearer new" }
        }
        let clock = RecordingClock()
        let transport = ClosureTransport { request in try reply(request, 200) }
            .with(.retry(policy, clock: clock), .authorization(OfflineProvider(wrapped: wrapped)))

        let error = await #expect(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error?.code == .other)
        #expect(clock.sleeps.count == 1, "retried after \(clock.sleeps)")
        #expect(error?.attempts == 2)
    }
}
