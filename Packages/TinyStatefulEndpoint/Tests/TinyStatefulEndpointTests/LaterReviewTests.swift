import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Review of 30deee4..a4d9fbf: what those fixes got wrong, regression tests now (open ones: `withKnownIssue`).
@Suite(.timeLimit(.minutes(1))) struct LaterReviewTests {
    let directory = RevalidationTests.directory()

    /// Writes a file as the previous version of `FileResponseStore` did: keyed by method and whole URL (credentials
    /// and query tokens in clear, no credentials hash), named by the key's 64-bit FNV-1a hash.
    func writeAsThePreviousVersion(key: String, body: String) throws {
        let hash = String(
            key.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }, radix: 16)
        let record = FileResponseStore.Record(key: key, status: 200, headers: [:], body: Data(body.utf8))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try JSONEncoder().encode(record).write(to: directory.appendingPathComponent(hash + ".json"))
    }

    /// StatefulEndpoint.swift `load()`: the grace period's loop cancels when no observer was left at two checks in a
    /// row, not when the last observer has been gone for a grace period. An observer that joins after the first
    /// empty check and leaves one second before the next gets its load cancelled one second after it left (of a
    /// 10 s grace period): the documented "at least this long" is broken by churn, as before the fix.
    @MainActor @Test func anObserverThatComesAndGoesBetweenTwoChecksStillGetsItsGracePeriod() async throws {
        let clock = DeadlineClock()
        let transport = NumberingTransport(holding: [1])
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: .seconds(10), clock: clock)
        var first: Owner? = Owner()
        endpoint.observe(owner: try #require(first)) { _ in }
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)
        await clock.waitForSleeps(1)  // the first check, at 10 s
        first = nil  // the first screen goes at 0 s
        clock.advance(by: .seconds(10))  // 10 s: nobody (once)
        await clock.waitForSleeps(2)
        #expect(!load.isCancelled)

        clock.advance(by: .seconds(1))
        var second: Owner? = Owner()
        endpoint.observe(owner: try #require(second)) { _ in }  // 11 s: a second screen joins the load
        clock.advance(by: .seconds(8))
        second = nil  // 19 s: and goes
        clock.advance(by: .seconds(1))  // 20 s: the check runs one second after it went
        await clock.waitForSleeps(3)

        #expect(!load.isCancelled)
        #expect(endpoint.state == .loading)
        transport.release()
        await load.value
        clock.advance(by: .seconds(100))  // lets the grace period's loop end
    }

    /// StatefulEndpoint+Revalidation.swift `freshnessLifetime`: a `max-age` too large for `Int64` is now "not a
    /// number", hence stale (every `loadIfNeeded()` reloads). RFC 9111 §1.2.2: a delta-seconds greater than the
    /// greatest integer a cache can represent must be taken as 2³¹ (or the greatest it can represent): fresh.
    @Test func aMaxAgeTooLargeForInt64IsFreshNotStale() throws {
        let url = try #require(URL(string: "https://example.com/text"))
        let response = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: nil,
                headerFields: ["Cache-Control": "max-age=99999999999999999999"]))
        #expect((response.freshnessLifetime ?? .zero) >= .seconds(2_147_483_648))
    }

    /// ResponseStore.swift `location(of:)`: the key of a request without credentials is still "method URL", the
    /// previous version's key for every request. A file that version wrote for `Authorization: Bearer alice` (with
    /// `storesCredentialedRequests: true`) is restored, after the upgrade, for a request that carries no credential.
    @Test func aFileThePreviousVersionWroteForAliceIsNotRestoredForARequestWithoutCredentials() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeAsThePreviousVersion(key: "GET https://example.com/me", body: "alice's account")
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true, log: { _ in })
        let anonymous = URLRequest(url: try #require(URL(string: "https://example.com/me")))

        let restored = await store.restore(for: anonymous, storedText)
        #expect(restored == nil)
    }

    /// ResponseStore.swift `location(of:)`: `credentialed` is "the redacted URL differs from `absoluteString`", and
    /// `URLComponents` drops an empty port (`https://example.com:/text`), so a request with no credential at all
    /// counts as credentialed and its response is silently never stored.
    @Test func aURLWithAnEmptyPortIsNotACredential() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let url = try #require(URL(string: "https://example.com:/text"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
        await store.save(Data("v1".utf8), response, for: URLRequest(url: url))

        let restored = await store.restore(for: URLRequest(url: url), storedText)
        #expect(store.location(of: URLRequest(url: url))?.credentialed == false)
        #expect(restored == "v1")
    }

    /// ResponseStore.swift `location(of:)`: the credentials hash is over the present values joined, without saying
    /// which header each came from, so `Authorization: X` and `Cookie: X` share one key: one's stored answer is
    /// restored for the other.
    @Test func theCredentialsHashTellsAuthorizationFromCookie() throws {
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true, log: { _ in })
        let url = try #require(URL(string: "https://example.com/me"))
        var authorized = URLRequest(url: url)
        authorized.setValue("session=abc", forHTTPHeaderField: "Authorization")
        var cookied = URLRequest(url: url)
        cookied.setValue("session=abc", forHTTPHeaderField: "Cookie")

        #expect(store.location(of: authorized)?.key != store.location(of: cookied)?.key)
    }

    /// StatefulEndpoint.swift `deinit`: the end hooks of a released endpoint's observations run in a main-actor task
    /// scheduled by the deinit, so after whatever the same main-actor turn does next. A controller that swaps a
    /// released endpoint for its replacement sees "start (old), start (new), stop (old)": its activity indicator
    /// (shared by the controller's observations, as a status bar indicator is) is off while the replacement loads.
    @MainActor @Test func theOldEndpointsLateEndDoesNotStopTheReplacementsActivity() async {
        let mock = MockTransport(delay: .seconds(30), clock: ContinuousClock())
        mock.register(.get, "/text", .text("v1"))
        let controller = TodosController(transport: mock)
        var old: StatefulEndpoint<String>? = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        controller.observe(endpoint: old ?? StatefulEndpoint(endpoint: textEndpoint())) { _, _ in }
        old = nil
        let replacement = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        controller.observe(endpoint: replacement) { _, _ in }
        await Task.yield()  // the old endpoint's end hooks run

        #expect(replacement.state == .loading)
        // The price of stopping a per-observation indicator (the standard one) when its endpoint goes: a shared one
        // is stopped late. Documented in ObservationLifetime.
        withKnownIssue("a shared indicator is stopped by the old endpoint's late end hook") {
            #expect(controller.hooks.indicator.isShowing, "\(controller.hooks.indicator.events)")
        }
        replacement.clear()
    }
}
