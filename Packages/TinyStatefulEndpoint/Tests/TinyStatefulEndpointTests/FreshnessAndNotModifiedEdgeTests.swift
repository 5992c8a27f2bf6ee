import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Freshness from the server's headers and the `304 Not Modified` that renews it, against RFC 9111, on a mock
/// transport and a test clock: odd directives, `Age` with `Expires`, a `304` that names another representation or
/// says `no-store`, weak `ETag`s, a clock standing still.
@Suite(.timeLimit(.minutes(1))) struct FreshnessAndNotModifiedEdgeTests {
    /// An HTTP date, for `Date`, and ten minutes after it, for `Expires`.
    static let (date, tenMinutesLater) = ("Wed, 21 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2015 07:38:00 GMT")

    /// A `200` for `https://example.com/text` with `headers`.
    static func response(_ headers: [String: String]) throws -> HTTPURLResponse {
        let url = try #require(URL(string: "https://example.com/text"))
        return try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
    }

    /// RFC 9111 §4.2.3: a response is fresh while its freshness lifetime exceeds its age, and the age counts the `Age`
    /// header whichever header gave the lifetime. Ten minutes of `Expires` with `Age: 500` leave 100 seconds; the
    /// `Age` was subtracted from a `max-age` only, so this value passed for fresh for ten minutes more.
    @Test func anAgeShortensALifetimeFromExpiresAsItDoesOneFromMaxAge() async throws {
        let clock = TestClock()
        let mock = MockTransport()
        let headers = ["Date": Self.date, "Expires": Self.tenMinutesLater, "Age": "500"]
        mock.register(.get, "/text", .text("v1", headers: headers), .text("v2"))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, clock: clock)
        #expect(try await cache.value() == "v1")

        clock.advance(by: .seconds(101))

        let lifetime = try Self.response(headers).freshnessLifetime
        #expect(lifetime == .seconds(100))
        let value = try await cache.value()
        #expect(value == "v2")
        #expect(mock.requests.count == 2)
    }

    /// A `max-age` without its number, or with spaces around its `=`, is invalid freshness information, which
    /// RFC 9111 §4.2.1 has a cache treat as stale, as the code did for `max-age=x` and `max-age= 60`. These were
    /// skipped instead: the response then said nothing, and its value stayed fresh until `load()`, for ever.
    @Test(arguments: ["max-age", "max-age =60", "max-age = 60", "public, max-age"])
    func aMaxAgeWithoutItsNumberOrWithSpacesIsNotFreshForever(cacheControl: String) async throws {
        let clock = TestClock()
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1", headers: ["Cache-Control": cacheControl]), .text("v2"))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, clock: clock)
        #expect(try await cache.value() == "v1")

        clock.advance(by: .seconds(3_600))
        let value = try await cache.value()

        #expect(value == "v2", "Cache-Control: \(cacheControl)")
    }

    /// RFC 9111 §4.3.4: a `304` whose strong `ETag` is not the kept one does not update it ("MUST NOT use the new
    /// response to update any stored responses"): the server's representation is another one. A server that
    /// answers `If-Modified-Since` and ignores `If-None-Match` does this when the body changed within the second of
    /// its `Last-Modified`. The kept `"v1"` was confirmed instead and took `ETag: "2"`, so every later revalidation
    /// claimed `"2"` and was answered `304` again: the old body was shown for good, `load()` included.
    @MainActor @Test func aNotModifiedNamingAnotherRepresentationDoesNotConfirmTheKeptValue() async throws {
        let mock = MockTransport()
        let first = ["ETag": #""1""#, "Last-Modified": Self.date, "Cache-Control": "no-cache"]
        mock.register(
            .get, "/text", .text("v1", headers: first),
            .status(304, headers: ["ETag": #""2""#, "Last-Modified": Self.date]),
            .text("v2", headers: ["ETag": #""2""#]))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.load()
        await endpoint.task?.value
        #expect(endpoint.state == .success("v1"))

        endpoint.load()  // If-None-Match: "1"; the server says: not modified, and it is "2"
        await endpoint.task?.value

        // Asked again without validators: the full answer replaces the value.
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#, nil])
        #expect(endpoint.state == .success("v2"))
    }

    /// A `304` updates the stored response's header fields (RFC 9111 §4.3.4), and a response marked `no-store` may
    /// not be kept (§3): the README promises a `no-store` answer is never written and the file of the answer before
    /// it removed. The `304` was never handed to the store, so the body the server now marks `no-store` stayed on the
    /// disk and the next launch offered it. It goes to the store with the stored body now, which then drops it.
    @MainActor @Test func aNotModifiedThatSaysNoStoreLeavesNothingForTheNextLaunch() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #""1""#]),
            .status(304, headers: ["ETag": #""1""#, "Cache-Control": "no-store"]))
        let first = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        first.load()
        await first.task?.value  // "v1" written
        #expect(await store.restore(for: textEndpoint().request, storedText) == "v1")

        let relaunched = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        relaunched.load()
        await relaunched.task?.value  // revalidated: not modified, and no-store from now on

        #expect(relaunched.state == .success("v1"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#])
        #expect(await store.restore(for: textEndpoint().request, storedText) == nil)
    }

    /// The stored response takes a `304`'s header fields (RFC 9111 §4.3.4): a relaunch revalidates with the
    /// `Last-Modified` the `304` gave, not the first answer's, and still has the body.
    @MainActor @Test func aNotModifiedUpdatesTheStoredHeaderFields() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let (old, new) = ("Wed, 21 Oct 2015 07:28:00 GMT", "Thu, 22 Oct 2015 07:28:00 GMT")
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["Last-Modified": old]), .status(304, headers: ["Last-Modified": new]))
        let first = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        first.load()
        await first.task?.value
        first.load()
        await first.task?.value  // 304

        let stored = await store.restore(for: textEndpoint().request) { body, response in
            (String(decoding: body, as: UTF8.self), response.value(forHTTPHeaderField: "Last-Modified"))
        }
        #expect(stored?.0 == "v1")
        #expect(stored?.1 == new)
    }

    /// A weak `ETag` goes back as it came (`If-None-Match` compares weakly, RFC 9110 §13.1.2), and its `304` keeps
    /// the value.
    @Test func aWeakETagIsSentBackAsItCameAndItsNotModifiedKeepsTheValue() async throws {
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #"W/"x""#, "Cache-Control": "no-cache"]),
            .status(304, headers: ["ETag": #"W/"x""#]))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock)

        #expect(try await cache.value() == "v1")
        #expect(try await cache.value() == "v1")

        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #"W/"x""#])
    }

    /// A `304`'s `Cache-Control` replaces the kept one: `no-cache` makes the value stale at once, `max-age=60` fresh
    /// for a minute after a `no-cache` response.
    @Test func aNotModifiedsCacheControlReplacesTheKeptOne() async throws {
        let clock = TestClock()
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #""1""#, "Cache-Control": "max-age=30"]),
            .status(304, headers: ["Cache-Control": "no-cache"]),
            .status(304, headers: ["Cache-Control": "max-age=60"]),
            .text("v2"))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, clock: clock)
        #expect(try await cache.value() == "v1")
        clock.advance(by: .seconds(30))

        #expect(try await cache.value() == "v1")  // stale: the first 304, which says no-cache
        #expect(try await cache.value() == "v1")  // no time passed, yet stale: the second 304, fresh for 60 s
        clock.advance(by: .seconds(59))
        #expect(try await cache.value() == "v1")  // fresh: no request
        clock.advance(by: .seconds(1))
        #expect(try await cache.value() == "v2")

        #expect(mock.requests.count == 4)
    }

    /// A `200` that answers `If-None-Match` with the same `ETag` is a full answer all the same: its body is decoded,
    /// shown and stored.
    @MainActor @Test func aFullAnswerWithTheSameETagReplacesTheValue() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let mock = MockTransport()
        let headers = ["ETag": #""1""#, "Cache-Control": "no-cache"]
        mock.register(.get, "/text", .text("v1", headers: headers), .text("v2", headers: headers))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        endpoint.loadIfNeeded()
        await endpoint.task?.value
        endpoint.loadIfNeeded()  // no-cache: revalidated, and answered in full
        await endpoint.task?.value

        #expect(endpoint.state == .success("v2"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#])
        #expect(await store.restore(for: textEndpoint().request, storedText) == "v2")
    }

    /// What `Cache-Control`, `Age` and `Expires` make of a lifetime: the directives in any case and spacing, joined
    /// from several header lines, the first `max-age` of two (RFC 9111 §4.2.1), an `Age` beyond the `max-age`, an
    /// `Expires` before the `Date`.
    @Test(arguments: [
        (["Cache-Control": "no-cache, max-age=60"], Duration.zero),
        (["Cache-Control": "max-age=60 ,\tNO-CACHE"], .zero),
        (["Cache-Control": "public,max-age=0"], .zero),
        (["Cache-Control": "max-age=60, max-age=0"], .seconds(60)),
        (["Cache-Control": #"MAX-AGE="60", must-revalidate"#], .seconds(60)),
        (["Cache-Control": "max-age=-1"], .zero),
        (["Cache-Control": "max-age=60", "Age": "90"], .zero),
        (["Cache-Control": "max-age=60", "Age": "x"], .seconds(60)),
        (["Date": date, "Expires": "Wed, 21 Oct 2015 07:18:00 GMT"], .zero),
        (["Date": date, "Expires": "yesterday"], .zero),
    ])
    func theLifetimeOfOddHeaders(headers: [String: String], lifetime: Duration) throws {
        #expect(try Self.response(headers).freshnessLifetime == lifetime, "\(headers)")
    }

    /// With the clock standing still, a `max-age=0` value is stale at once, and a value fresh when it was loaded but
    /// stale when a screen comes is revalidated by that screen's observation.
    @MainActor @Test func aValueStaleWhenObservedIsRevalidatedEvenWithTheClockStandingStill() async throws {
        let clock = TestClock()
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #""1""#, "Cache-Control": "max-age=0"]),
            .status(304, headers: ["Cache-Control": "max-age=10"]), .status(304))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, clock: clock)
        endpoint.loadIfNeeded()
        await endpoint.task?.value
        endpoint.loadIfNeeded()  // no time passed: max-age=0 is stale all the same
        await endpoint.task?.value
        #expect(mock.requests.count == 2)

        clock.advance(by: .seconds(9))
        let early = Owner()
        endpoint.observe(owner: early) { _ in }  // fresh: no request
        #expect(endpoint.task == nil)
        clock.advance(by: .seconds(1))
        let late = Owner()
        endpoint.observe(owner: late) { _ in }  // ten seconds: stale, revalidated
        await endpoint.task?.value

        #expect(endpoint.state == .success("v1"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#, #""1""#])
    }
}
