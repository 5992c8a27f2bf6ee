import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks

@testable import TinyStatefulEndpoint

/// `EndpointCache` and `FileResponseStore` as a server uses them: many request handlers at once sharing one upstream
/// answer, and files written and read concurrently. Found right (no known issue): each test pins a promise of the docs
/// that no other test checked.
@Suite(.timeLimit(.minutes(1))) struct ServerSharedCacheEdgeTests {
    static let url = URL(string: "https://example.com/text") ?? URL(fileURLWithPath: "/")

    func response(_ url: URL = Self.url) throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
    }

    // MARK: EndpointCache

    /// A stale value whose revalidation fails is not returned; the next call revalidates it again with its `ETag`,
    /// and a `304` then hands back the kept value.
    @Test func aFailedRevalidationKeepsTheValueForTheNextRevalidation() async throws {
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #""1""#, "Cache-Control": "no-cache"]), .status(503),
            .status(304))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock)
        #expect(try await cache.value() == "v1")

        let failure = await #expect(throws: HTTPTransportError.self) { try await cache.value() }
        #expect(failure?.code == .unacceptableStatus(503))
        #expect(try await cache.value() == "v1")
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#, #""1""#])
    }

    /// Every handler waiting on a load that fails gets that failure, from one upstream request; a handler that was
    /// cancelled meanwhile gets `CancellationError` instead, and the next call loads again.
    @Test func aFailureIsSharedByEveryWaiterButACancelledOne() async throws {
        let clock = TestClock(opened: 0)
        let mock = MockTransport(delay: .milliseconds(1), clock: clock)
        mock.register(.get, "/text", .status(503), .text("v2"))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock)
        let starter = Task { try await cache.value() }
        await clock.waitForSleeps(1)  // the load is in flight
        let waiters = (0..<20).map { _ in Task { try await cache.value() } }
        let cancelled = Task { try await cache.value() }
        for _ in 0..<200 { await Task.yield() }  // time for the waiters to join the load
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        clock.open(.max / 2)

        for waiter in [starter] + waiters {
            let error = await #expect(throws: HTTPTransportError.self) { try await waiter.value }
            #expect(error?.code == .unacceptableStatus(503))
        }
        #expect(mock.requests.count == 1)
        #expect(try await cache.value() == "v2")
        #expect(mock.requests.count == 2)
    }

    /// A transport that records how many of its requests ran at once, and answers each fresh for one second.
    final class OverlapTransport: HTTPTransport {
        private let state = Locked((running: 0, most: 0, calls: 0))
        var most: Int { state.withLock { $0.most } }
        var calls: Int { state.withLock { $0.calls } }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let call = state.withLock { state in
                (state.running, state.calls) = (state.running + 1, state.calls + 1)
                state.most = max(state.most, state.running)
                return state.calls
            }
            for _ in 0..<10 { await Task.yield() }  // others arrive meanwhile
            state.withLock { $0.running -= 1 }
            let url = try #require(request.url)
            let headers = ["Cache-Control": "max-age=1"]
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers)
            return (Data("v\(call)".utf8), try #require(response))
        }
    }

    /// Handlers arriving while time moves on (the value going stale again and again) never make two upstream
    /// requests at once.
    @Test func handlersWhileTimeMovesOnNeverRunTwoUpstreamRequestsAtOnce() async throws {
        let (clock, transport) = (TestClock(), OverlapTransport())
        let cache = EndpointCache(endpoint: textEndpoint(), transport: transport, clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<500 {
                group.addTask {
                    if number % 50 == 0 { clock.advance(by: .milliseconds(600)) }
                    _ = try await cache.value()
                }
            }
            try await group.waitForAll()
        }

        #expect(transport.most == 1)
        #expect(transport.calls <= 11)  // at most one load per second of test time, and the first
    }

    // MARK: FileResponseStore

    /// Many first saves of different keys at once, into a directory (and its parents) not there yet: each is kept.
    @Test func concurrentFirstSavesOfManyKeysIntoANewNestedDirectoryAreAllKept() async throws {
        let root = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("a/b/c")
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let urls = try (0..<64).map { try #require(URL(string: "https://example.com/items/\($0)")) }
        let answers = try urls.map { try response($0) }
        await withTaskGroup(of: Void.self) { group in
            for (url, answer) in zip(urls, answers) {
                group.addTask { await store.save(Data(url.path.utf8), answer, for: URLRequest(url: url)) }
            }
        }

        for url in urls { #expect(await store.restore(for: URLRequest(url: url), storedText) == url.path) }
        #expect(log.withLock { $0 }.isEmpty)
    }

    /// Handlers reading a key while others replace its file never see a missing or half-written file.
    @Test func restoresDuringConcurrentSavesOfOneKeyAlwaysFindAWholeFile() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let request = URLRequest(url: Self.url)
        let answer = try response()
        let bodies = (0..<20).map { String(repeating: "\($0 % 10)", count: 50_000) }
        await store.save(Data(bodies[0].utf8), answer, for: request)

        let restored = await withTaskGroup(of: String?.self) { group in
            for body in bodies {
                group.addTask {
                    await store.save(Data(body.utf8), answer, for: request)
                    return body
                }
            }
            for _ in 0..<200 { group.addTask { await store.restore(for: request, storedText) } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }

        #expect(restored.filter { !bodies.contains($0 ?? "") }.isEmpty)
        #expect(log.withLock { $0 }.isEmpty)
    }

    /// A directory whose name has spaces, percent signs and non-ASCII letters: files are written inside it, read
    /// back, and a log names them by their path on disk.
    @Test func aDirectoryWithAnOddNameKeepsAndNamesItsFiles() async throws {
        let root = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("caché dir%20 #1?")
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let request = URLRequest(url: Self.url)
        await store.save(Data("v1".utf8), try response(), for: request)
        #expect(await store.restore(for: request, storedText) == "v1")
        let file = try #require(store.location(of: request)).file
        #expect(file.deletingLastPathComponent().path == directory.path)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/" + file.lastPathComponent))

        try Data("{".utf8).write(to: file)
        #expect(await store.restore(for: request, storedText) == nil)
        #expect(log.withLock { $0 }.first?.contains(directory.path + "/" + file.lastPathComponent) == true)
    }

    /// Odd URLs (`..` segments, a slash in the query, a very long query) are all kept in flat files of the directory.
    @Test func oddURLsAreKeptInFlatFilesOfTheDirectory() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let texts = [
            "https://example.com/../../etc/passwd", "https://example.com/a?path=/../../x",
            "https://example.com/%2F..%2F",
            "https://example.com/q?" + String(repeating: "a", count: 100_000), "https://exämple.com/ü?ö=ß",
        ]
        for text in texts {
            let url = try #require(URL(string: text))
            await store.save(Data(text.utf8), try response(url), for: URLRequest(url: url))
            #expect(await store.restore(for: URLRequest(url: url), storedText) == text)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == texts.count)
        #expect(names.allSatisfy { $0.hasSuffix(".json") && !$0.contains("/") && $0.count <= 21 })
    }

    /// A truncated file (a full disk, a copy cut short) is ignored, named in the log, and replaced by the next save.
    @Test func aTruncatedFileIsIgnoredNamedInTheLogAndReplacedByTheNextSave() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let request = URLRequest(url: Self.url)
        await store.save(Data("v1".utf8), try response(), for: request)
        let file = try #require(store.location(of: request)).file
        let whole = try Data(contentsOf: file)
        try whole.prefix(whole.count / 2).write(to: file)

        #expect(await store.restore(for: request, storedText) == nil)
        #expect(log.withLock { $0 }.count == 1)
        #expect(log.withLock { $0 }.first?.hasPrefix("ignored the stored response \(file.path): ") == true)

        await store.save(Data("v2".utf8), try response(), for: request)
        #expect(await store.restore(for: request, storedText) == "v2")
        #expect(log.withLock { $0 }.count == 1)
    }
}
