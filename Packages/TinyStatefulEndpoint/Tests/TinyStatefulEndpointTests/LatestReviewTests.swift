import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Review of a4d9fbf..47178ec: what those fixes got wrong, regression tests now (open ones: `withKnownIssue`).
@Suite(.timeLimit(.minutes(1))) struct LatestReviewTests {
    let directory = RevalidationTests.directory()

    /// StatefulEndpoint+Revalidation.swift `freshnessLifetime`: a `max-age` too large for `Int64` is now 2^31 s, but
    /// an `Age` too large is still read as `0` (`Int64($0) ?? 0`): a response that is ages old is fresh for its whole
    /// `max-age`. RFC 9111 §1.2.2 makes such an `Age` 2^31 s too: older than `max-age=60`, stale.
    @Test func anAgeTooLargeForInt64IsOldNotNew() throws {
        let url = try #require(URL(string: "https://example.com/text"))
        let headers = ["Cache-Control": "max-age=60", "Age": "99999999999999999999"]
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
        #expect(response.freshnessLifetime == .zero)
    }

    /// ResponseStore.swift `location(of:)`: the URL is compared without its fragment, but hashed with it
    /// (`"URL: \(url.absoluteString)"`), so a URL with a secret query parameter gets a file per fragment, which is
    /// never sent: what was stored for `…#top` is not restored for `…#bottom`, the same request on the wire.
    @Test func aFragmentDoesNotChangeTheFileOfACredentialedURL() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true, log: { _ in })
        let top = try #require(URL(string: "https://example.com/me?access_token=abc#top"))
        let bottom = try #require(URL(string: "https://example.com/me?access_token=abc#bottom"))
        let response = try #require(HTTPURLResponse(url: top, statusCode: 200, httpVersion: nil, headerFields: [:]))
        await store.save(Data("v1".utf8), response, for: URLRequest(url: top))

        let restored = await store.restore(for: URLRequest(url: bottom), storedText)
        #expect(restored == "v1")
    }

    /// Documentation.docc/ObservationLifetime.md says the indicator of an endpoint released during a load "stays on
    /// until another load of that controller stops it". That holds only for an indicator shared by the controller's
    /// loads: an indicator per observation (the standard UIKit defaults make an `OverlayActivityIndicator`, a spinner
    /// of its own, for every call; or one passed per call) is never stopped: its spinner stays on the view.
    @MainActor @Test func aReleasedEndpointStopsItsObservationsIndicator() async {
        let slow = MockTransport(delay: .seconds(30), clock: ContinuousClock())
        slow.register(.get, "/text", .text("v1"))
        let controller = TodosController(transport: slow)
        let own = FakeActivityIndicator()
        var old: StatefulEndpoint<String>? = StatefulEndpoint(endpoint: textEndpoint(), transport: slow)
        controller.observe(
            endpoint: old ?? StatefulEndpoint(endpoint: textEndpoint()), activityIndicator: own
        ) { _, _ in }
        #expect(own.events == ["start"])
        weak let released = old
        old = nil
        #expect(released == nil)

        let fast = MockTransport()
        fast.register(.get, "/text", .text("v2"))
        let replacement = StatefulEndpoint(endpoint: textEndpoint(), transport: fast)
        controller.observe(endpoint: replacement, activityIndicator: FakeActivityIndicator()) { _, _ in }
        await replacement.task?.value
        #expect(replacement.state == .success("v2"))

        #expect(!own.isShowing, "\(own.events)")
    }
}
