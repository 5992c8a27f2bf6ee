import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// `MockTinyAPIClient` under a base URL with a path, cancelled while its mock waits: what it throws, records and
/// answers next.
@Suite(.timeLimit(.minutes(1))) struct MockTinyAPIClientCancellationTests {
    enum UserEndpoint: TinyAPIEndpoint {
        case list
        var baseURL: String { "https://api.example.com/v1" }
        var path: String { "/users" }
        var method: HTTPMethod { .GET }
    }

    /// A clock whose first sleep lasts until its task is cancelled (announced on `started`); later sleeps end at once.
    final class FirstSleepHangsClock: Clock, Sendable {
        private let sleeps = Locked(0)
        private let startedSleeping: AsyncStream<Void>.Continuation
        let started: AsyncStream<Void>

        init() { (started, startedSleeping) = AsyncStream.makeStream(of: Void.self) }

        var now: ContinuousClock.Instant { ContinuousClock.now }
        var minimumResolution: Duration { .zero }

        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
            try Task.checkCancellation()
            let isFirst = sleeps.withLock { count in
                count += 1
                return count == 1
            }
            guard isFirst else { return }
            startedSleeping.yield()
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    /// The request goes through a view of the mock that takes `/v1` off; a cancellation during the delay is
    /// `TinyAPIError.cancelled`, the request is recorded with its whole URL, and the answer it did not get goes to
    /// the next request (the view shares the routes' bookkeeping with the mock).
    @Test func aRequestCancelledDuringTheDelayIsCancelledAndLeavesItsAnswer() async throws {
        let clock = FirstSleepHangsClock()
        let client = MockTinyAPIClient(transport: MockTransport(delay: .seconds(1), clock: clock))
        let ada = User(id: 1, name: "Ada", email: "ada@example.com")
        let bob = User(id: 2, name: "Bob", email: "bob@example.com")
        client.transport.register(.get, "/users", try .json([ada]), try .json([bob]))

        let task = Task { try await client.request(UserEndpoint.list, as: [User].self) }
        for await _ in clock.started { break }
        task.cancel()
        let error = try await #require(throws: TinyAPIError.self) { try await task.value }
        #expect(error == TinyAPIError(.cancelled))
        #expect((error.underlyingError as? HTTPTransportError)?.code == .cancelled)

        #expect(try await client.request(UserEndpoint.list, as: [User].self) == [ada])
        #expect(try await client.request(UserEndpoint.list, as: [User].self) == [bob])
        let urls = client.transport.requests.map { $0.url?.absoluteString }
        #expect(urls == Array(repeating: "https://api.example.com/v1/users", count: 3))
    }
}
