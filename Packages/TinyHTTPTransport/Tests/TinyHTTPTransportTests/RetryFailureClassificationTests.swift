import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

#if canImport(Glibc)
    import Glibc

    /// A TCP server on `127.0.0.1` (a free port) answering every request with a `200` that announces 100 bytes of
    /// body, sends 8 and closes the connection: a server that crashed or restarted mid-response.
    private final class MidBodyClosingServer: Sendable {
        let port: UInt16
        private let listener: Int32
        private let accepted = Locked(0)

        /// The connections accepted so far: one per attempt.
        var connections: Int { accepted.withLock { $0 } }

        init() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(listener, address, length) == 0 && listen(listener, 8) == 0
                        && getsockname(listener, address, &length) == 0
                }
            }
            guard bound else {
                close(listener)
                throw HTTPTransportError(.other, message: "the test server could not listen")
            }
            let accepted = accepted
            self.listener = listener
            port = UInt16(bigEndian: address.sin_port)
            Thread.detachNewThread {
                while case let connection = accept(listener, nil, nil), connection >= 0 {
                    accepted.withLock { $0 += 1 }
                    Self.readHead(connection)
                    let reply = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\":1,"
                    _ = reply.utf8CString.withUnsafeBufferPointer {
                        send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
                    }
                    close(connection)
                }
            }
        }

        func stop() {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }

        /// Reads the request head, up to its blank line (a GET has no body).
        private static func readHead(_ connection: Int32) {
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { return }
                head += buffer[..<count]
            }
        }
    }
#endif

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
            let server = try MidBodyClosingServer()
            defer { server.stop() }
            let transport = URLSessionTransport(configuration: .ephemeral)
                .with(.retry(policy, clock: RecordingClock()))
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/items/1"))

            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(method: .get, url: url))
            }

            #expect(error?.body == nil, "no whole response: \(String(describing: error))")
            #expect(server.connections == 2, "\(String(describing: error))")
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
