import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Review of `FileResponseStore` and the revalidation of a stored response: bugs, fixed (each test failed before its
/// fix), and what was checked and found right.
@Suite(.timeLimit(.minutes(1))) struct StoreReviewFindingsTests {
    let directory = RevalidationTests.directory()

    func response(_ url: URL, headers: [String: String] = [:]) throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
    }

    func text(_ store: FileResponseStore, for request: URLRequest) async -> String? {
        await store.restore(for: request) { body, _ in String(decoding: body, as: UTF8.self) }
    }

    /// `HTTPRedaction`: "Every text TinyKit prints about a request goes through a redaction". The store's log prints
    /// its key, the raw URL, with the `api_key` query parameter and the password of the user information.
    @Test func theLogOfAFailedWriteRedactsTheURL() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("not a directory".utf8).write(to: directory)  // so the store cannot create its directory
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true) { message in
            log.withLock { $0.append(message) }
        }
        let url = try #require(URL(string: "https://example.com/text?api_key=SECRET-KEY"))

        await store.save(Data("v1".utf8), try response(url), for: URLRequest(url: url))

        let messages = log.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { !$0.contains("SECRET-KEY") }, "\(messages)")
    }

    /// The same for a file written for another request: both URLs are printed as they are. (A store that keeps
    /// credentialed requests: one that does not reads no file for them.)
    @Test func theLogOfAForeignFileRedactsTheURLs() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true) { message in
            log.withLock { $0.append(message) }
        }
        let request = URLRequest(url: try #require(URL(string: "https://example.com/text?api_key=SECRET-KEY")))
        let file = try #require(store.location(of: request)).file
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let foreign =
            #"{"key":"GET https://example.com/x?access_token=OTHER-SECRET","status":200,"headers":{},"body":""}"#
        try Data(foreign.utf8).write(to: file)

        #expect(await text(store, for: request) == nil)

        let messages = log.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { !$0.contains("SECRET-KEY") && !$0.contains("OTHER-SECRET") }, "\(messages)")
    }

    /// The doc: "neither is the response to a request that carries `Authorization` or `Cookie` … private data stays
    /// off the disk". A URL with user information (`https://user:password@host`) is sent with those credentials
    /// (Basic authentication), yet its response is written, and so is the password, in the file's key.
    @Test func theResponseToARequestWithCredentialsInItsURLIsNotWritten() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let url = try #require(URL(string: "https://alice:hunter2@example.com/me"))
        let request = URLRequest(url: url)

        await store.save(Data("alice's private data".utf8), try response(url), for: request)

        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let written = try files.map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
        let restored = await text(store, for: request)
        #expect(restored == nil)
        #expect(written.allSatisfy { !$0.contains("hunter2") }, "\(written)")
    }

    /// RFC 9111 §4.1: a response with `Vary` answers only a request whose nominated headers match. The store wrote
    /// it and restored the French answer for an English request (offered offline, indefinitely, as that endpoint's
    /// value). `Accept-Language` is part of the key now, so the answer is kept for French requests only (a `Vary` on
    /// another header is not written at all: `aResponseVaryingOnlyWithKeyedHeadersIsKept`).
    @Test func aResponseThatVariesIsNotRestoredForARequestWithOtherValues() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let url = try #require(URL(string: "https://example.com/greeting"))
        var french = URLRequest(url: url)
        french.setValue("fr", forHTTPHeaderField: "Accept-Language")
        var english = URLRequest(url: url)
        english.setValue("en", forHTTPHeaderField: "Accept-Language")

        await store.save(
            Data("bonjour".utf8), try response(url, headers: ["Vary": "Accept-Language", "Content-Language": "fr"]),
            for: french)

        #expect(await text(store, for: french) == "bonjour")
        let restored = await text(store, for: english)
        #expect(restored == nil, "\(String(describing: restored))")
    }

    /// ResponseStore.swift `save`: CORS middleware (Spring's, Express's `cors`, rack-cors) names `Origin` and the
    /// preflight fields in the `Vary` of every response, though only browsers send them. Such an answer was never
    /// written, so persistence did nothing for those APIs. The CORS fields are part of the key now: an answer is kept
    /// for the `Origin` it was given for (none, from an app), and not restored for another.
    @Test func anAnswerVaryingOnTheCORSFieldsIsKeptPerOrigin() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let url = try #require(URL(string: "https://example.com/todos"))
        let plain = URLRequest(url: url)
        var fromSite = URLRequest(url: url)
        fromSite.setValue("https://site.example", forHTTPHeaderField: "Origin")
        let vary = "Accept-Encoding, Origin, Access-Control-Request-Method, Access-Control-Request-Headers"

        await store.save(Data("[1]".utf8), try response(url, headers: ["Vary": vary]), for: plain)
        await store.save(Data("[2]".utf8), try response(url, headers: ["Vary": "origin"]), for: fromSite)

        #expect(await text(store, for: plain) == "[1]")
        #expect(await text(store, for: fromSite) == "[2]")
        await store.save(Data("[3]".utf8), try response(url, headers: ["Vary": "Origin, Cookie"]), for: plain)
        #expect(await text(store, for: plain) == nil)  // a Vary on another field is still not written
    }

    /// The same for a body: two `POST`s to one URL with different bodies (a search, GraphQL) share one file, though
    /// `EndpointRegistry` tells them apart by body; the second one's answer is restored for the first.
    @MainActor @Test func twoPostsWithDifferentBodiesDoNotShareAStoredResponse() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let mock = MockTransport()
        mock.register(.post, "/search", .text("results for a"), .text("results for b"))
        func search(_ query: String) -> Endpoint<String> {
            var request = URLRequest(url: URL(string: "https://example.com/search") ?? URL(fileURLWithPath: "/"))
            (request.httpMethod, request.httpBody) = ("POST", Data(#"{"q":"\#(query)"}"#.utf8))
            return Endpoint(request: request) { data, _ in .success(String(decoding: data ?? Data(), as: UTF8.self)) }
        }
        let registry = EndpointRegistry(transport: mock, store: store)
        for query in ["a", "b"] {
            let endpoint = registry.statefulEndpoint(for: search(query))
            endpoint.load()
            await endpoint.task?.value
        }

        let relaunched = EndpointRegistry(transport: MockTransport(), store: store)  // offline: nothing registered
        let a = relaunched.statefulEndpoint(for: search("a"))
        a.load()
        await a.task?.value

        #expect(a.value == nil || a.value == "results for a", "\(String(describing: a.value))")
    }

    /// RFC 9111 §4.3.4: a `304` updates the stored response's headers; its `Expires` (an absolute date) long past, the
    /// value is stale. A bare `304` (with its `Date`, as servers send) to a days-old restored response takes
    /// `Expires − Date` of the *stored* response as a new lifetime: the value is fresh again for that hour, and
    /// `loadIfNeeded()` does not revalidate it though its `Expires` passed years ago.
    @MainActor @Test func aBare304DoesNotMakeARestoredResponseWhoseExpiresPassedFresh() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let endpoint = textEndpoint()
        let url = try #require(endpoint.request.url)
        let stored = try response(
            url, headers: ["ETag": #""1""#, "Date": RevalidationTests.date, "Expires": "Wed, 21 Oct 2015 08:28:00 GMT"])
        await store.save(Data("v1".utf8), stored, for: endpoint.request)
        let formatter = DateFormatter()
        (formatter.locale, formatter.timeZone) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "GMT"))
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let mock = MockTransport()
        mock.register(.get, "/text", .status(304, headers: ["Date": formatter.string(from: Date())]), .status(304))

        let relaunched = StatefulEndpoint(endpoint: endpoint, transport: mock, store: store, clock: TestClock())
        relaunched.loadIfNeeded()
        await relaunched.task?.value  // the stored "v1", confirmed by the first 304
        #expect(relaunched.state == .success("v1"))
        relaunched.loadIfNeeded()  // stale: its Expires passed, so it should revalidate
        await relaunched.task?.value

        #expect(mock.requests.count == 2)
    }

    /// `freshnessLifetime` computes `max-age − Age` in `Int64`: a response's `Age` of `-9223372036854775808` (or a
    /// negative `Age` beside a `max-age` near `Int64.max`) overflows and traps, so one malformed header from a server
    /// or an intermediary crashes the app at the end of a load. Shown in a child process.
    @Test func aNegativeAgeFromTheServerDoesNotCrash() async {
        await #expect(processExitsWith: .success) {
            let url = URL(string: "https://example.com/text") ?? URL(fileURLWithPath: "/")
            let headers = ["Cache-Control": "max-age=60", "Age": "-9223372036854775808"]
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers)
            _ = response?.freshnessLifetime
        }
    }

    // MARK: Checked and found right

    /// A relaunched endpoint revalidates the stored response with its `ETag`, and a `304` shows the stored value.
    @MainActor @Test func aRelaunchRevalidatesTheStoredResponseWithItsETag() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let first = StatefulEndpoint(
            endpoint: textEndpoint(), transport: RevalidationTests.revalidatingMock(), store: store)
        first.load()
        await first.task?.value

        let mock = MockTransport()
        mock.register(.get, "/text", .status(304))
        let relaunched = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store, clock: TestClock())
        #expect(await waitUntil(relaunched) { $0.isSuccess } == .success("v1"))  // offered stale, before any load
        relaunched.loadIfNeeded()  // the stored value is stale: revalidated
        await relaunched.task?.value

        #expect(relaunched.state == .success("v1"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [#""1""#])
        relaunched.loadIfNeeded()  // fresh for the stored max-age=30 after the 304
        #expect(relaunched.task == nil)
    }

    /// Many saves of one key at once (atomic writes) leave one whole file, with one of the bodies, and nothing else.
    @Test func concurrentSavesOfOneKeyLeaveOneWholeFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let request = textEndpoint().request
        let url = try #require(request.url)
        let bodies = (0..<40).map { String(repeating: "\($0)", count: 10_000) }
        let answer = try response(url)
        await withTaskGroup(of: Void.self) { group in
            for body in bodies { group.addTask { await store.save(Data(body.utf8), answer, for: request) } }
        }

        #expect(try bodies.contains(#require(await text(store, for: request))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
        #expect(log.withLock { $0 }.isEmpty)
    }
}
