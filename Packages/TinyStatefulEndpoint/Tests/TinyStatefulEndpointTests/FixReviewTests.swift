import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Review of the day's freshness fixes (83decd5): each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct FixReviewTests {
    /// StatefulEndpoint+Revalidation.swift: only a `304` whose *strong* `ETag` differed from the kept one was
    /// refused. One whose weak `ETag` names another representation (`W/"2"` for a kept `W/"1"`) confirmed the
    /// kept value and took that `ETag` (RFC 9111 §4.3.4: a weak validator that corresponds to no stored response
    /// selects nothing to update). Every later revalidation then claimed `W/"2"` and was answered `304`: the old body
    /// was shown for good, the failure 83decd5 fixed for strong tags. Weak tags are common (nginx weakens the
    /// `ETag` of a gzipped body; many frameworks send only weak ones).
    @MainActor @Test func aNotModifiedNamingAnotherWeakRepresentationDoesNotConfirmTheKeptValue() async throws {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        let first = ["ETag": #"W/"1""#, "Last-Modified": date, "Cache-Control": "no-cache"]
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: first),
            .status(304, headers: ["ETag": #"W/"2""#, "Last-Modified": date]),
            .text("v2", headers: ["ETag": #"W/"2""#]))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.load()
        await endpoint.task?.value
        #expect(endpoint.state == .success("v1"))

        endpoint.load()  // If-None-Match: W/"1"; the server says: not modified, and it is W/"2"
        await endpoint.task?.value

        #expect(endpoint.state == .success("v2"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #"W/"1""#, nil])
    }

    /// A `304`'s `ETag` confirms the kept tag of the same opaque value, weak or strong on either side (weak
    /// comparison, as `If-None-Match` uses): nginx weakens a gzipped body's `ETag` (`W/"1"`) and answers its `304`
    /// with the strong `"1"`; a strong match sent every such revalidation twice. Another opaque value never confirms.
    @MainActor
    @Test(arguments: [
        (#"W/"1""#, #""1""#, true), (#""1""#, #"W/"1""#, true), (#"W/"1""#, #"W/"1""#, true), (#""1""#, #""1""#, true),
        (#"W/"1""#, #""2""#, false), (#""1""#, #"W/"2""#, false),
    ])
    func aTagConfirmsTheSameOpaqueTagWeakOrStrong(kept: String, answered: String, confirms: Bool) async throws {
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": kept, "Cache-Control": "no-cache"]),
            .status(304, headers: ["ETag": answered]), .text("v2", headers: ["ETag": answered]))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.load()
        await endpoint.task?.value
        endpoint.load()
        await endpoint.task?.value

        #expect(endpoint.state == .success(confirms ? "v1" : "v2"))
        #expect(mock.requests.count == (confirms ? 2 : 3))
    }
}
