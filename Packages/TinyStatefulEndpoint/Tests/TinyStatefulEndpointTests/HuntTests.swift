import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// A clock whose sleeps end when ``advance(by:)`` reaches their deadline, as a real clock's would: unlike
/// `TestClock`, it tells a check made one second after an event from one made ten seconds after it.
final class DeadlineClock: Clock, Sendable {
    typealias Instant = TestClock.Instant

    private struct State {
        var now = Instant(offset: .zero)
        var started = 0
        var sleepers: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []
        var startWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// Moves `now` on and ends the sleeps whose deadlines it reached.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.map(\.continuation)
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.resume() }
    }

    /// Waits until `count` sleeps have started.
    func waitForSleeps(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.started >= count { return true }
                state.startWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        await withCheckedContinuation { continuation in
            let (ready, waiters) = state.withLock { state in
                state.started += 1
                let started = state.started
                let waiters = state.startWaiters.filter { $0.count <= started }.map(\.continuation)
                state.startWaiters.removeAll { $0.count <= started }
                if deadline <= state.now { return (true, waiters) }
                state.sleepers.append((deadline, continuation))
                return (false, waiters)
            }
            for waiter in waiters { waiter.resume() }
            if ready { continuation.resume() }
        }
    }
}

/// Bugs found by the TinyStatefulEndpoint hunt: regression tests now.
@Suite(.timeLimit(.minutes(1))) struct HuntTests {
    /// `cancelsUnobservedLoadAfter:` promises a load is cancelled "once this long has passed since its last observer
    /// went away"; the check runs every grace period counted from the load's start, so an observer that leaves just
    /// before a check gets its load cancelled at once (here after 1 s of a 10 s grace period).
    @MainActor @Test func theGracePeriodCountsFromWhenTheLastObserverLeft() async throws {
        let clock = DeadlineClock()
        let transport = NumberingTransport(holding: [1])
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: .seconds(10), clock: clock)
        var owner: Owner? = Owner()
        endpoint.observe(owner: try #require(owner)) { _ in }
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)
        await clock.waitForSleeps(1)  // the first check, at 10 s

        clock.advance(by: .seconds(9))
        owner = nil  // the screen goes away at 9 s
        clock.advance(by: .seconds(1))  // 10 s: the check runs, one second after the screen went
        await clock.waitForSleeps(2)  // the check ran and sleeps again

        #expect(!load.isCancelled)
        #expect(endpoint.state == .loading)
        transport.release()
        await load.value
        clock.advance(by: .seconds(100))  // lets the grace period's loop end
    }

    /// RFC 9111 §5.2 asks recipients to accept `max-age="60"` (quoted) too, and §4.2.1 to treat invalid freshness
    /// information as stale (as the code does for an invalid `Expires`); a quoted or otherwise unparseable `max-age`
    /// is skipped instead, so the response counts as saying nothing and its value stays fresh forever.
    @MainActor @Test func aQuotedMaxAgeIsAFreshnessLifetime() async throws {
        let (clock, mock) = (TestClock(), MockTransport())
        mock.register(.get, "/text", .text("v1", headers: ["Cache-Control": #"max-age="60""#]), .text("v2"))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, clock: clock)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: .seconds(61))
        endpoint.loadIfNeeded()
        await endpoint.task?.value

        #expect(mock.requests.count == 2)
        #expect(endpoint.state == .success("v2"))
    }

    /// With `storesCredentialedRequests: true` a response to `Authorization: Bearer alice` is written under a key of
    /// method and URL only, so a request with another user's credentials restores Alice's private answer, while
    /// `EndpointRegistry`, with its default key headers, takes care that two different credentials never share an
    /// instance.
    @Test func aStoredCredentialedResponseIsNotRestoredForOtherCredentials() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true, log: { _ in })
        let url = try #require(URL(string: "https://example.com/me"))
        var alice = URLRequest(url: url)
        alice.setValue("Bearer alice", forHTTPHeaderField: "Authorization")
        var bob = URLRequest(url: url)
        bob.setValue("Bearer bob", forHTTPHeaderField: "Authorization")
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
        await store.save(Data("alice's account".utf8), response, for: alice)
        let text: @Sendable (Data, HTTPURLResponse) throws -> String = { data, _ in
            String(decoding: data, as: UTF8.self)
        }
        #expect(await store.restore(for: alice, text) == "alice's account")

        let restoredForBob = await store.restore(for: bob, text)
        #expect(restoredForBob == nil)
    }

    /// A token in the query (`access_token`, `api_key`…: secrets by `HTTPRedaction.default`, redacted in the store's
    /// own log lines) is a credential in the URL like a user name as a token, yet the response is stored without
    /// `storesCredentialedRequests`, and the whole URL, token included, is written in clear into the file's key.
    @Test func aResponseToARequestWithASecretQueryTokenIsNotStored() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let url = try #require(URL(string: "https://example.com/me?access_token=SECRET-TOKEN"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
        await store.save(Data("private".utf8), response, for: URLRequest(url: url))

        let files = storedFiles(in: directory)
        #expect(!files.contains("SECRET-TOKEN"))
        #expect(!files.contains(Data("private".utf8).base64EncodedString()))
    }

    /// `Set-Cookie` is a secret by `HTTPRedaction.default` ("private data stays off the disk"), yet a response that
    /// sets a session cookie is written with its `Set-Cookie` field.
    @Test func aStoredResponseDoesNotKeepItsSetCookie() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let url = try #require(URL(string: "https://example.com/news"))
        let response = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: nil, headerFields: ["Set-Cookie": "session=SECRET-SESSION"]))
        await store.save(Data("news".utf8), response, for: URLRequest(url: url))
        let files = storedFiles(in: directory)
        #expect(files.contains(Data("news".utf8).base64EncodedString()))  // stored: no credential in the request

        #expect(!files.contains("SECRET-SESSION"))
    }
}
