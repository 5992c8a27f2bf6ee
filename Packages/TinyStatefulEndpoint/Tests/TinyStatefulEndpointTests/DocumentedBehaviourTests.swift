import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Claims of the README, the DocC catalog and the doc comments checked against the code, each as its reader would
/// rely on it. Each claim found false was corrected in the docs (or the code), and the test asserts what both say now.
@Suite(.timeLimit(.minutes(1))) struct DocumentedBehaviourTests {
    /// StatefulEndpoint.swift, `init`'s `maximumAge:` said "`nil`, the default, keeps a value until ``load()`` or
    /// ``clear()``". The property's own doc and the README say that without it the response's `Cache-Control`
    /// decides, as the code does: a `max-age=60` value is loaded again after 61 s. `init`'s doc says so now.
    @MainActor @Test func withoutMaximumAgeTheResponsesMaxAgeDecides() async throws {
        let clock = TestClock()
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1", headers: ["Cache-Control": "max-age=60"]), .text("v2"))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, clock: clock)
        endpoint.loadIfNeeded()
        await endpoint.task?.value
        #expect(endpoint.state == .success("v1"))

        clock.advance(by: .seconds(61))
        endpoint.loadIfNeeded()
        await endpoint.task?.value

        // The doc says now: the response's `Cache-Control` decides.
        #expect(mock.requests.count == 2)
        #expect(endpoint.state == .success("v2"))
    }

    /// README.md said "A `304 Not Modified` keeps the value without decoding anything […] and reaches the
    /// observers again as a success". Since 83decd5 a `304` whose `ETag` is not the kept one's is not a
    /// confirmation: the request goes out a second time, without validators, and that answer is decoded. Right by
    /// RFC 9111 §4.3.4; the README and the type's doc say so now.
    @MainActor @Test func aNotModifiedWithAnotherETagIsAnsweredByARequestWithoutValidators() async throws {
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #""1""#, "Cache-Control": "no-cache"]),
            .status(304, headers: ["ETag": #""2""#]), .text("v2", headers: ["ETag": #""2""#]))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.load()
        await endpoint.task?.value

        endpoint.load()
        await endpoint.task?.value

        // The docs say now: a 304 with another ETag is answered by a request without validators.
        #expect(mock.requests.count == 3)
        #expect(endpoint.state == .success("v2"))
    }
}
