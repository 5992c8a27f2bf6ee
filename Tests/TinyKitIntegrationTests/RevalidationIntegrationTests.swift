import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit
import TinyKitTestServer

@testable import TinyStatefulEndpoint

/// `StatefulEndpoint` revalidation, freshness, persistence, value-with-error and cancel-when-unobserved, against
/// the in-process HTTP server through the live `URLSessionTransport` (its default configuration, URL cache included).
@MainActor @Suite(.timeLimit(.minutes(1))) struct RevalidationIntegrationTests {
    typealias Todo = StatefulEndpointIntegrationTests.Todo
    typealias Gate = StatefulEndpointIntegrationTests.Gate
    nonisolated static let todos = [Todo(id: 1, title: "Revalidate")]
    nonisolated static let body = #"[{"id": 1, "title": "Revalidate"}]"#

    /// An endpoint that counts how often its response is decoded.
    nonisolated static func endpoint(
        _ url: URL, decodes: Locked<Int>, headers: [String: String] = [:]
    ) -> Endpoint<[Todo]> {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return Endpoint(request: request) { data, _ in
            decodes.withLock { $0 += 1 }
            return Result { try JSONDecoder().decode([Todo].self, from: data ?? Data()) }
        }
    }

    /// Answers `GET /todos` with `200` and `validator` (a header and its value), or `304` when the request's
    /// `condition` header sends the validator back; counts the `304`s.
    nonisolated static func revalidatingServer(
        validator: (name: String, value: String), condition: String, extra: [String: String] = [:]
    ) async throws -> (TestServer, Locked<Int>) {
        let server = try await TestServer.start()
        let notModified = Locked(0)
        await server.route("GET /todos") { request in
            guard request.header(condition) == validator.value else {
                return .json(200, body, headers: extra.merging([validator.name: validator.value]) { $1 })
            }
            notModified.withLock { $0 += 1 }
            return TestResponse(status: 304, headers: extra)
        }
        return (server, notModified)
    }

    /// Waits for the load in flight, then for the save that follows it.
    static func settle<A>(_ endpoint: StatefulEndpoint<A>) async { await endpoint.task?.value }

    final class Screen {
        var states: [RequestState<[Todo]>] = []
    }

    @Test func anETagRevalidatesWithA304ThatIsNeverDecoded() async throws {
        let (server, notModified) = try await Self.revalidatingServer(
            validator: ("ETag", #""v1""#), condition: "If-None-Match")
        defer { server.stop() }
        let decodes = Locked(0)
        let todos = StatefulEndpoint(
            endpoint: Self.endpoint(server.url("/todos"), decodes: decodes), transport: URLSessionTransport())
        let screen = Screen()
        todos.observe(owner: screen) { screen, state in screen.states.append(state) }
        await Self.settle(todos)

        todos.load()
        await Self.settle(todos)

        #expect(screen.states == [.idle, .loading, .success(Self.todos), .loading, .success(Self.todos)])
        #expect(notModified.withLock { $0 } == 1)
        #expect(decodes.withLock { $0 } == 1)
        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, #""v1""#])
    }

    @Test func lastModifiedRevalidatesWithIfModifiedSince() async throws {
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        let (server, notModified) = try await Self.revalidatingServer(
            validator: ("Last-Modified", date), condition: "If-Modified-Since")
        defer { server.stop() }
        let decodes = Locked(0)
        let todos = StatefulEndpoint(
            endpoint: Self.endpoint(server.url("/todos"), decodes: decodes), transport: URLSessionTransport())

        todos.load()
        await Self.settle(todos)
        todos.load()
        await Self.settle(todos)

        #expect(todos.state == .success(Self.todos))
        #expect(notModified.withLock { $0 } == 1)
        #expect(decodes.withLock { $0 } == 1)
        #expect(server.requests.map { $0.header("If-Modified-Since") } == [nil, date])
    }

    @Test(arguments: [
        ("max-age=60", 59, 1), ("max-age=60", 61, 2), ("no-cache", 0, 2), ("no-store", 0, 2),
        ("max-age=60, No-Store", 0, 2), ("", 3_600, 1),
    ])
    func freshnessComesFromCacheControlWhenThereIsNoMaximumAge(
        cacheControl: String, secondsLater: Int, requests: Int
    ) async throws {
        let (server, _) = try await Self.revalidatingServer(
            validator: ("ETag", #""v1""#), condition: "If-None-Match", extra: ["Cache-Control": cacheControl])
        defer { server.stop() }
        let clock = TestClock()
        let todos = StatefulEndpoint(
            endpoint: Self.endpoint(server.url("/todos"), decodes: Locked(0)), transport: URLSessionTransport(),
            clock: clock)
        todos.loadIfNeeded()
        await Self.settle(todos)

        clock.advance(by: .seconds(secondsLater))
        todos.loadIfNeeded()
        await Self.settle(todos)

        #expect(server.requests.count == requests, "\(cacheControl), \(secondsLater) s later")
        #expect(todos.state == .success(Self.todos))
    }

    @Test func expiresDecidesFreshnessRelativeToTheResponsesDate() throws {
        let url = try #require(URL(string: "https://example.com/todos"))
        func lifetime(_ headers: [String: String]) throws -> Duration? {
            let response = try #require(
                HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
            return response.freshnessLifetime
        }
        let date = "Wed, 21 Oct 2015 07:28:00 GMT"
        #expect(try lifetime(["Date": date, "Expires": "Wed, 21 Oct 2015 07:38:00 GMT"]) == .seconds(600))
        #expect(try lifetime(["Date": date, "Expires": "0"]) == .zero)  // not a date: already expired
        #expect(try lifetime(["Cache-Control": "public, max-age=60", "Age": "20"]) == .seconds(40))
        #expect(try lifetime(["Cache-Control": "max-age=60", "Expires": "0"]) == .seconds(60))  // max-age wins
        #expect(try lifetime([:]) == nil)
    }

    @Test func aStoredValueIsOfferedAtOnceByANewInstanceAndRevalidated() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (gate, held, notModified) = (Gate(), Locked(false), Locked(0))
        await server.route("GET /todos") { request in
            if held.withLock({ $0 }) { await gate.wait() }
            guard request.header("If-None-Match") == #""v1""# else {
                return .json(200, Self.body, headers: ["ETag": #""v1""#])
            }
            notModified.withLock { $0 += 1 }
            return TestResponse(status: 304)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let decodes = Locked(0)
        let endpoint = Self.endpoint(server.url("/todos"), decodes: decodes)
        let first = StatefulEndpoint(endpoint: endpoint, transport: URLSessionTransport(), store: store)
        first.load()
        await Self.settle(first)

        // A new launch, offline for now: the server holds its answer until the gate opens.
        held.withLock { $0 = true }
        let relaunched = StatefulEndpoint(endpoint: endpoint, transport: URLSessionTransport(), store: store)
        relaunched.loadIfNeeded()
        let offered = await StatefulEndpointIntegrationTests.waitUntil(relaunched) { $0.isSuccess }
        #expect(offered == .success(Self.todos))
        #expect(notModified.withLock { $0 } == 0)  // shown from the disk, before the server answered

        await gate.open()
        await Self.settle(relaunched)

        #expect(relaunched.state == .success(Self.todos))
        #expect(notModified.withLock { $0 } == 1)
        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, #""v1""#])
        #expect(decodes.withLock { $0 } == 2)  // the server's body once, the stored body once; never the 304
    }

    @Test func aCorruptOrForeignFileIsIgnoredAndLogged() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos", response: .json(200, Self.body))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let endpoint = Self.endpoint(server.url("/todos"), decodes: Locked(0))
        let file = try #require(store.location(of: endpoint.request)).file

        for contents in [#"{"key": "GET http"#, #"{"key":"GET /other","status":200,"headers":{},"body":""}"#] {
            try Data(contents.utf8).write(to: file)
            let todos = StatefulEndpoint(endpoint: endpoint, transport: URLSessionTransport(), store: store)
            todos.loadIfNeeded()
            await Self.settle(todos)
            #expect(todos.state == .success(Self.todos))  // from the server, as if there were no file
        }
        #expect(log.withLock { $0 }.count == 2)
        #expect(log.withLock { $0 }.allSatisfy { $0.contains("ignored the stored response \(file.path)") })
        // The good response replaced the bad file.
        let restored = await store.restore(for: endpoint.request) { body, _ in body }
        #expect(restored.map { String(decoding: $0, as: UTF8.self) } == Self.body)
    }

    @Test(arguments: [false, true])
    func aRequestWithAuthorizationIsStoredOnlyWhenAllowed(allowed: Bool) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos", response: .json(200, Self.body))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: allowed)
        let endpoint = Self.endpoint(
            server.url("/todos"), decodes: Locked(0), headers: ["Authorization": "Bearer secret"])
        let todos = StatefulEndpoint(endpoint: endpoint, transport: URLSessionTransport(), store: store)

        todos.load()
        await Self.settle(todos)

        #expect(todos.state == .success(Self.todos))
        let file = try #require(store.location(of: endpoint.request)).file
        #expect(FileManager.default.fileExists(atPath: file.path) == allowed)
    }

    @Test func noStoreIsNeverPersisted() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos", response: .json(200, Self.body, headers: ["Cache-Control": "no-store"]))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let endpoint = Self.endpoint(server.url("/todos"), decodes: Locked(0))
        let todos = StatefulEndpoint(endpoint: endpoint, transport: URLSessionTransport(), store: store)

        todos.load()
        await Self.settle(todos)

        #expect(todos.state == .success(Self.todos))
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func aFailedRefreshKeepsTheLastValueBesideTheFailure() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let failing = Locked(false)
        await server.route("GET /todos") { _ in
            failing.withLock { $0 } ? .json(500, #"{"error":"down"}"#) : .json(200, Self.body)
        }
        let todos = StatefulEndpoint(
            endpoint: Self.endpoint(server.url("/todos"), decodes: Locked(0)), transport: URLSessionTransport())
        let screen = Screen()
        todos.observe(owner: screen) { screen, state in screen.states.append(state) }
        await Self.settle(todos)

        failing.withLock { $0 = true }
        todos.load()
        await Self.settle(todos)

        #expect(screen.states.last?.error?.message.contains("500") == true)  // the banner
        #expect(todos.value == Self.todos)  // the list stays under the error banner
        // TinyHTTP- and tinyAPI-style switches over the state still work.
        switch todos.state {
        case .failure(let error): #expect(error.message.contains("500"))
        case .idle, .loading, .success: Issue.record("expected a failure, got \(todos.state)")
        }
    }

    @Test(arguments: [true, false])
    func aLoadNobodyObservesAnyMoreIsCancelledOnlyWhenAsked(cancels: Bool) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let gate = Gate()
        await server.route("GET /todos") { _ in
            await gate.wait()
            return .json(200, Self.body)
        }
        let todos = StatefulEndpoint(
            endpoint: Self.endpoint(server.url("/todos"), decodes: Locked(0)), transport: URLSessionTransport(),
            cancelsUnobservedLoadAfter: cancels ? .milliseconds(50) : nil)
        var screen: Screen? = Screen()
        todos.observe(owner: try #require(screen)) { _, _ in }
        _ = await server.waitForRequests()
        let load = try #require(todos.task)

        screen = nil  // the screen goes away while the load runs
        // Cancelled 50 to 100 ms later (the grace period is checked at its own interval). Not with `states`: an
        // iteration observes the endpoint too.
        while cancels, !load.isCancelled { try await Task.sleep(for: .milliseconds(10)) }

        #expect(load.isCancelled == cancels)
        #expect(todos.state == (cancels ? .idle : .loading))
        await gate.open()
        await load.value
        #expect(todos.state == (cancels ? .idle : .success(Self.todos)))
        if cancels { #expect(await server.waitForClosedConnections()) }
    }
}
