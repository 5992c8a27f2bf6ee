import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit
import TinyKitTestServer

/// `StatefulEndpoint` against a real HTTP server on loopback, through the live `URLSessionTransport`.
@Suite(.timeLimit(.minutes(1))) struct StatefulEndpointIntegrationTests {
    struct Todo: Codable, Sendable, Equatable {
        var id: Int?
        var title: String?
    }

    /// The seed's API class, pointed at the test server.
    @MainActor final class TodosAPI {
        private let url: URL
        private let jsonDecoder = JSONDecoder()
        private let transport: any HTTPTransport

        init(url: URL, transport: any HTTPTransport = URLSessionTransport()) {
            self.url = url
            self.transport = transport
        }

        lazy var all: StatefulEndpoint<[Todo]> = {
            StatefulEndpoint(endpoint: self.get(), transport: transport)
        }()

        func get() -> Endpoint<[Todo]> {
            var request = URLRequest(method: .get, url: self.url)
            request.httpAccept(.json)
            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }
    }

    @MainActor final class Screen {
        var states: [RequestState<[Todo]>] = []
    }

    /// Holds a server handler until opened.
    actor Gate {
        private var isOpen = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiters.append($0) }
        }

        func open() {
            isOpen = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    @MainActor static func waitUntil<A: Sendable>(
        _ endpoint: StatefulEndpoint<A>, _ predicate: (RequestState<A>) -> Bool
    ) async -> RequestState<A>? {
        for await state in endpoint.states where predicate(state) { return state }
        return nil
    }

    @MainActor @Test func twoScreensObservingTheSharedEndpointMakeOneRequest() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let gate = Gate()
        await server.route("GET /todos") { _ in
            await gate.wait()  // both screens observe before the answer
            return .json(200, #"[{"id": 1, "title": "Integrate"}]"#)
        }
        let api = TodosAPI(url: server.url("/todos"))
        let (list, badge) = (Screen(), Screen())
        for screen in [list, badge] {
            api.all.observe(owner: screen) { screen, state in screen.states.append(state) }
        }
        await gate.open()
        _ = await Self.waitUntil(api.all) { $0.isSuccess }  // the screens were called before `states` saw it

        let todos = [Todo(id: 1, title: "Integrate")]
        #expect(list.states == [.idle, .loading, .success(todos)])
        #expect(badge.states == [.loading, .success(todos)])
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.header("accept") == "application/json")
    }

    @Test func concurrentLoadIfNeededSendsOneRequestOverTheWire() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos", response: .json(200, "[]"))
        let endpoint = await TodosAPI(url: server.url("/todos")).get()
        let shared = StatefulEndpoint(endpoint: endpoint, transport: URLSessionTransport())
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { await shared.loadIfNeeded() } }
        }
        #expect(await Self.waitUntil(shared) { !$0.isLoading } == .success([]))
        #expect(server.requests.count == 1)
    }

    @MainActor @Test func loadDuringASlowResponseCancelsItAndDeliversOnlyTheNewerAnswer() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let gate = Gate()
        let received = Locked(0)
        await server.route("GET /todos") { _ in
            let number = received.withLock { count in
                count += 1
                return count
            }
            if number == 1 { await gate.wait() }  // the first answer is slow
            return .json(200, #"[{"id": \#(number)}]"#)
        }
        let shared = StatefulEndpoint(
            endpoint: TodosAPI(url: server.url("/todos")).get(), transport: URLSessionTransport())
        let owner = Screen()
        shared.observe(owner: owner) { owner, state in owner.states.append(state) }  // starts the first load
        #expect(await server.waitForRequests(count: 1).count >= 1)
        shared.load()
        _ = await Self.waitUntil(shared) { $0.isSuccess }
        await gate.open()
        #expect(await server.waitForClosedConnections(atLeast: 1))  // the slow request was cancelled on the wire
        #expect(owner.states == [.idle, .loading, .success([Todo(id: 2)])])
        #expect(shared.state == .success([Todo(id: 2)]))
    }

    @MainActor @Test func aFailedReloadKeepsTheTypedErrorAndTheLastValue() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let received = Locked(0)
        await server.route("GET /todos") { _ in
            let number = received.withLock { count in
                count += 1
                return count
            }
            return number == 1 ? .json(200, #"[{"id": 1}]"#) : .json(503, #"{"error": "maintenance"}"#)
        }
        let shared = StatefulEndpoint(
            endpoint: TodosAPI(url: server.url("/todos")).get(), transport: URLSessionTransport())
        shared.loadIfNeeded()
        _ = await Self.waitUntil(shared) { $0 == .success([Todo(id: 1)]) }
        shared.load()
        let failure = try #require(await Self.waitUntil(shared) { $0.isFailure }?.error)
        #expect((failure.underlyingError as? HTTPTransportError)?.code == .unacceptableStatus(503))
        #expect(shared.value == [Todo(id: 1)])
    }

    @MainActor @Test func aLoadRunsAgainOnceTheValueIsOlderThanTheMaximumAge() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let received = Locked(0)
        await server.route("GET /todos") { _ in
            let number = received.withLock { count in
                count += 1
                return count
            }
            return .json(200, #"[{"id": \#(number)}]"#)
        }
        let clock = TestClock()
        let shared = StatefulEndpoint(
            endpoint: TodosAPI(url: server.url("/todos")).get(), transport: URLSessionTransport(),
            maximumAge: .seconds(60), clock: clock)
        shared.loadIfNeeded()
        _ = await Self.waitUntil(shared) { $0.isSuccess }
        clock.advance(by: .seconds(59))
        shared.loadIfNeeded()
        #expect(shared.state == .success([Todo(id: 1)]))
        clock.advance(by: .seconds(1))
        shared.loadIfNeeded()
        #expect(await Self.waitUntil(shared) { $0.isSuccess } == .success([Todo(id: 2)]))
        #expect(server.requests.count == 2)
    }
}
