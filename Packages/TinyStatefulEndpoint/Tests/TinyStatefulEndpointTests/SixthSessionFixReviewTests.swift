import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// The review of the sixth session's review fixes (`927be23..rev-c`): the stored body a `304` hands back.
@Suite(.timeLimit(.minutes(1))) struct SixthSessionFixReviewTests {
    /// StatefulEndpoint.swift `load()` / `hasValidators(of:)`: the stored body goes back after a `304` only when its
    /// `ETag` is the revalidated response's, compared exactly, while the `304` itself confirms it weakly (`W/"1"` by
    /// `"1"`, nginx's gzip). A `304` updates the kept `ETag` to the strong one, so two instances of one endpoint (two
    /// screens) hold `W/"1"` and `"1"` for the same body: the other instance's next `304` no longer reached the
    /// file, and one that says `no-store` left the body on disk for the next launch.
    @MainActor @Test func aNotModifiedReachesTheStoredBodyWhoseETagDiffersOnlyInWeakness() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #"W/"1""#]), .status(304, headers: ["ETag": #""1""#]),
            .status(304, headers: ["ETag": #""1""#, "Cache-Control": "no-store"]))
        let first = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        first.load()
        await first.task?.value  // "v1", stored with W/"1"
        let second = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        second.load()
        await second.task?.value  // the stored "v1" confirmed by "1": stored with "1"
        first.load()
        await first.task?.value  // "v1" (W/"1") confirmed by "1", which says no-store

        #expect(first.state == .success("v1"))
        #expect(second.state == .success("v1"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #"W/"1""#, #"W/"1""#])
        let stored = await store.restore(for: textEndpoint().request) { body, _ in body }
        #expect(stored == nil, "the no-store 304 left the body stored")
    }
}
