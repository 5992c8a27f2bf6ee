// The spellings TinyHTTP's README (seeds/001) names or implies outside its code samples, as
// Docs/ComingFromTinyHTTP.md's "Other spellings the README names" gives them in TinyKit: one test per row that has a
// TinyKit spelling, so the table cannot rot. The samples themselves are SeedSamplesTinyHTTPTests'.
import Foundation
import Testing
import TinyKit

@MainActor @Suite(.timeLimit(.minutes(1))) struct SeedSpellingsTinyHTTPTests {
    struct Todo: Codable, Sendable, Equatable {
        var id: Int?
        var title: String?
    }

    static let url = URL(string: "https://todos.example/todos/")!

    static func todosEndpoint() -> Endpoint<[Todo]> {
        var request = URLRequest(method: .get, url: url)
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: JSONDecoder().decodeResponse)
    }

    /// A mock answering `GET /todos/` with two todos.
    static func mock() -> MockTransport {
        let mock = MockTransport()
        mock.register(.get, "/todos/", .json(#"[{"id":1,"title":"Buy milk"},{"id":2,"title":"Walk the dog"}]"#))
        return mock
    }

    /// `Endpoint.request`: kept.
    @Test func endpointRequestIsKept() {
        let endpoint = Self.todosEndpoint()
        #expect(endpoint.request.url == Self.url)
        #expect(endpoint.request.method == .get)
    }

    /// `Endpoint.validateResponse` → `expectedStatusCode`, a `(Int) -> Bool`.
    @Test func validateResponseIsExpectedStatusCode() {
        let endpoint = Self.todosEndpoint()
        #expect(endpoint.expectedStatusCode(200))
        #expect(endpoint.expectedStatusCode(299))
        #expect(!endpoint.expectedStatusCode(404))

        // Made with `validateResponse:`, the endpoint accepts every status there and its validation decides in `parse`.
        let validated = Endpoint<[Todo]>(
            request: endpoint.request, validateResponse: EndpointExpectation.successStatusCode,
            decodeResponse: JSONDecoder().decodeResponse)
        #expect(validated.expectedStatusCode(404))
        let notFound = HTTPURLResponse(url: Self.url, statusCode: 404, httpVersion: nil, headerFields: nil)
        let error = #expect(throws: HTTPTransportError.self) { try validated.parse(Data(), notFound).get() }
        #expect(error?.code == .unacceptableStatus(404))
    }

    /// `Endpoint.decodeResponse` → `parse`, which takes a `URLResponse?` and returns a `Result`.
    @Test func decodeResponseIsParse() throws {
        let endpoint = Self.todosEndpoint()
        let response = try #require(
            HTTPURLResponse(
                url: Self.url, statusCode: 200, httpVersion: nil, headerFields: ["Content-Type": "application/json"]))

        let todos = try endpoint.parse(Data(#"[{"id":1,"title":"Buy milk"}]"#.utf8), response).get()

        #expect(todos == [Todo(id: 1, title: "Buy milk")])
        #expect(throws: (any Error).self) { try endpoint.parse(Data("nope".utf8), response).get() }
    }

    /// `httpAccept(_:)` and `httpContentType(_:)`: kept, but they replace the field where TinyHTTP's appended to it;
    /// several values go in one `setHeader`.
    @Test func httpAcceptReplaces() {
        var request = URLRequest(method: .post, url: Self.url)
        request.httpAccept("text/plain")
        request.httpAccept(.json)
        request.httpContentType("text/plain")
        request.httpContentType(.json)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")

        request.setHeader("Accept", "application/json, text/plain")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json, text/plain")
    }

    /// TinyHTTP's `EndpointError.httpStatusErrorCode(code:)` → `HTTPTransportError`, code `.unacceptableStatus`.
    @Test func aStatusErrorIsAnHTTPTransportError() async throws {
        let mock = MockTransport()
        mock.register(.get, "/todos/", .json(#"{"error":"gone"}"#, status: 410))

        let error = try await #require(throws: HTTPTransportError.self) { try await mock.load(Self.todosEndpoint()) }

        #expect(error.code == .unacceptableStatus(410))
    }

    /// `StatefulEndpoint(endpoint:urlSession:)` → `StatefulEndpoint(endpoint:transport:)`; a `URLSession` is a
    /// transport. `LoadingResult` → `RequestState`; `loadIfNeeded()`, `load()` and `clear()`: kept.
    @Test func statefulEndpointTakesATransport() async throws {
        _ = StatefulEndpoint(endpoint: Self.todosEndpoint(), transport: URLSession.shared)
        let mock = Self.mock()
        let all = StatefulEndpoint(endpoint: Self.todosEndpoint(), transport: mock)

        let idle: RequestState<[Todo]> = all.state
        #expect(idle == .idle)
        all.loadIfNeeded()
        #expect(all.state == .loading)
        try await waitUntil { all.state.isSuccess }
        #expect(all.value?.count == 2)
        all.loadIfNeeded()  // loaded, and the response says nothing about freshness: kept
        #expect(mock.requests.count == 1)
        all.load()
        try await waitUntil { all.state.isSuccess }
        #expect(mock.requests.count == 2)
        all.clear()
        #expect(all.state == .idle)
        #expect(all.value == nil)
    }

    /// `observe(owner:queue:observeCurrent:observer:)` → `observe(owner:_:)`: on the main actor, the current state
    /// first. For `observeCurrent: false`, skip the first call; `states` is the async spelling.
    @Test func observeHasNoQueueOrObserveCurrent() async throws {
        let all = StatefulEndpoint(endpoint: Self.todosEndpoint(), transport: Self.mock())
        let owner = Owner()

        all.observe(owner: owner) { state in owner.seen.append("\(state.map(\.count))") }
        var isFirst = true
        all.observe(owner: owner) { state in  // observeCurrent: false
            if isFirst {
                isFirst = false
                return
            }
            owner.laterOnly.append("\(state.map(\.count))")
        }

        try await waitUntil { owner.seen.count == 3 }
        #expect(owner.seen == ["idle", "loading", "success(2)"])
        #expect(owner.laterOnly == ["success(2)"])
    }

    /// TinyHTTP's `removeObservers(owner:)` → the `ObservationToken` that `observe` returns: `cancel()`.
    @Test func removeObserversIsCancellingTheToken() async throws {
        let all = StatefulEndpoint(endpoint: Self.todosEndpoint(), transport: Self.mock())
        let owner = Owner()

        let token = all.observe(owner: owner) { state in owner.seen.append("\(state.map(\.count))") }
        let seenBeforeCancel = owner.seen
        token.cancel()
        all.load()
        try await waitUntil { all.state.isSuccess }

        #expect(owner.seen.first == "idle")
        #expect(owner.seen == seenBeforeCancel)
    }

    /// `EndpointDefaults.defaultActivityIndicator` and `.defaultErrorHandler` → the conforming type's
    /// `endpointLoadingDefaults`; the per-call parameters of `load` stay.
    @Test func endpointDefaultsAreEndpointLoadingDefaults() async throws {
        let mock = MockTransport()
        mock.register(.get, "/todos/", .json("{}", status: 500))
        let controller = Controller(transport: mock)

        await controller.load(endpoint: Self.todosEndpoint()) { _ in }.value
        #expect(controller.indicator.events == ["start", "stop"])
        #expect(controller.errors.count == 1)

        let perCall = Indicator()
        var perCallErrors: [any Error] = []
        await controller.load(
            endpoint: Self.todosEndpoint(), activityIndicator: perCall, onError: { perCallErrors.append($0) }
        ) { _ in }.value
        #expect(perCall.events == ["start", "stop"])
        #expect(perCallErrors.count == 1)
        #expect(controller.errors.count == 1)
    }

    final class Owner {
        var seen: [String] = []
        var laterOnly: [String] = []
    }

    final class Indicator: ActivityIndicator {
        var events: [String] = []
        func startActivity() { events.append("start") }
        func stopActivity() { events.append("stop") }
    }

    /// A controller whose defaults show `indicator` and record errors: what `EndpointDefaults` set app-wide.
    final class Controller: EndpointLoading {
        let indicator = Indicator()
        var errors: [any Error] = []
        let transport: any HTTPTransport
        init(transport: any HTTPTransport) { self.transport = transport }

        var endpointLoadingDefaults: EndpointLoadingDefaults {
            var defaults = EndpointLoadingDefaults(transport: transport)
            defaults.activityIndicator = { controller in (controller as? Controller)?.indicator }
            defaults.errorHandler = { controller, error in (controller as? Controller)?.errors.append(error) }
            return defaults
        }
    }

    /// Waits (up to 10 s) until `condition` holds, checking every 10 ms.
    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
