import Dispatch
import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

// `QueueExecutor` and `Holds` are AuthorizationReviewFindingsTests.swift's.

/// Has `Bearer same`, and asked to refresh it hands it back: its own clock says the token has not expired (a server
/// whose clock is ahead refuses it). The first refresh waits at `"refresh"` until the test lets it go. Nothing in
/// it suspends but that wait, so a request preferring a ``QueueExecutor`` runs on its queue throughout.
private final class StillValidTokens: CredentialProvider {
    let waypoints: Holds
    private let count = Locked(0)

    init(waypoints: Holds) { self.waypoints = waypoints }

    /// The calls of ``refreshCredential(rejected:)`` so far.
    var refreshes: Int { count.withLock { $0 } }

    func credential() async throws -> String? { "Bearer same" }

    func refreshCredential(rejected: String?) async throws -> String {
        let number = count.withLock { count in
            count += 1
            return count
        }
        if number == 1 { await waypoints.hold("refresh") }
        return "Bearer same"
    }
}

/// `Bearer 0` until the first refresh, `Bearer 1` after it.
private actor CountingTokens: CredentialProvider {
    private var generation = 0
    func credential() -> String? { "Bearer \(generation)" }
    func refreshCredential(rejected: String?) -> String {
        generation += 1
        return "Bearer \(generation)"
    }
}

/// The authorization middleware's refresh, second pass: requests refused at the same time, what its errors say, and
/// what the metrics middleware reports for a request that ends cancelled.
@Suite(.timeLimit(.minutes(1))) struct AuthorizationRefreshEdgeTests {
    /// Five requests are refused `Bearer same` at the same time: the first starts the refresh, the other four join it
    /// while it runs. Per ``HTTPMiddleware/authorization(_:header:)`` ("the requests refused at the same time share
    /// one call of `refreshCredential(rejected:)`") and `CredentialProvider` ("calls it once for all the requests
    /// refused at the same time"), the provider is asked once. It hands back the credential it was asked to refresh;
    /// each of the four, having joined a refresh that returned the credential it was refused, looped and started
    /// a refresh of its own, one after another: five calls for one refusal.
    @Test func requestsRefusedTogetherShareTheRefreshEvenWhenItHandsBackTheSameCredential() async throws {
        let waypoints = Holds()
        let tokens = StillValidTokens(waypoints: waypoints)
        let sent = Recorder<String>()
        let transport = ClosureTransport { request in
            sent.append(request.value(forHTTPHeaderField: "Authorization") ?? "none")
            return try reply(request, 401)
        }.with(.authorization(tokens))
        let executor = QueueExecutor()
        let send = { @Sendable in
            Task(executorPreference: executor) {
                await Result { try await transport.send(URLRequest(method: .get, url: testURL)) }
            }
        }

        let first = send()
        await waypoints.waitForArrival("refresh")  // refused; its refresh runs, held
        let others = (0..<4).map { _ in send() }
        executor.queue.sync {}  // each of the four was refused and waits on the refresh in flight
        #expect(sent.all.count == 5)
        #expect(tokens.refreshes == 1)  // the four started none of their own: they joined the one held
        waypoints.release("refresh")
        var results = [await first.value]
        for task in others { results.append(await task.value) }

        for result in results {  // each sent twice, the second time refused too: fails without a loop
            let error = try #require(throws: HTTPTransportError.self) { try result.get() }
            #expect(error.code == .unacceptableStatus(401))
        }
        #expect(sent.all.count == 10)
        #expect(tokens.refreshes == 1)
    }

    /// A request refused, refreshed and refused again was sent twice by the authorization middleware. Per
    /// ``HTTPTransportError/attempts`` ("how many times the request was sent before this error") its error says `2`;
    /// it said `1`, and its description left out "after 2 attempts", as if the request had never been sent again.
    @Test func aRequestRefusedAgainAfterTheRefreshSaysItWasSentTwice() async throws {
        let sent = Recorder<String>()
        let transport = ClosureTransport { request in
            sent.append(request.value(forHTTPHeaderField: "Authorization") ?? "none")
            return try reply(request, 401)
        }.with(.authorization(CountingTokens()))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(sent.all == ["Bearer 0", "Bearer 1"])
        #expect(error.message == "the refreshed credential was refused too")
        #expect(error.attempts == 2)
        #expect(error.description.contains("after 2 attempts"))
    }

    /// An exchange that ends because its task was cancelled is reported once, with its failure and the time it took
    /// on the injected clock (not only exchanges that failed on their own).
    @Test func metricsReportACancelledExchangeWithItsDuration() async throws {
        let clock = RecordingClock()
        let finished = Recorder<HTTPExchangeMetrics>()
        let (sending, sent) = AsyncStream.makeStream(of: Void.self)
        let transport = ClosureTransport { request in
            clock.advance(by: .seconds(2))
            sent.yield()
            try await Task.sleep(for: .seconds(3600))  // until cancelled
            return try reply(request, 200)
        }.with(.metrics(clock: clock) { finished.append($0) })

        let task = Task { try await transport.send(URLRequest(method: .get, url: testURL)) }
        for await _ in sending { break }
        task.cancel()
        _ = await task.result

        #expect(finished.all.count == 1)
        let metrics = try #require(finished.all.first)
        #expect(metrics.duration == .seconds(2))
        #expect(throws: CancellationError.self) { try metrics.result.get() }
    }
}
