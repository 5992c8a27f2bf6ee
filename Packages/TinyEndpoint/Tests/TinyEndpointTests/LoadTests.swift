import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

@Suite(.timeLimit(.minutes(1))) struct LoadTests {
    @Test func sendsTheRequestAndParsesTheResponse() async throws {
        let transport = StubTransport(body: #"{"name":"Ada"}"#)
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/ada"), query: ["full": "1"])
        #expect(try await transport.load(endpoint) == User(name: "Ada"))
        #expect(transport.requests == [endpoint.request])
    }

    @Test func anUnacceptableStatusKeepsCodeResponseAndBody() async throws {
        let transport = StubTransport(status: 404, body: #"{"error":"missing"}"#, headers: ["X-Request-Id": "7"])
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/nobody"))
        let error = try await #require(throws: HTTPTransportError.self) { try await transport.load(endpoint) }
        #expect(error.code == .unacceptableStatus(404))
        #expect(error.response?.value(forHTTPHeaderField: "X-Request-Id") == "7")
        #expect(error.body?.text == #"{"error":"missing"}"#)
        #expect(error.request == endpoint.request)
        #expect(error.description.contains("404"))
    }

    @Test func anUnacceptableStatusAfterRetriesSaysHowManyAttemptsWereMade() async throws {
        let server = StubTransport(status: 503, body: "busy")
        let clock = RecordingClock()
        let transport = server.with(.retry(RetryPolicy(maxAttempts: 3, jitter: 0), clock: clock))
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/1"))
        let error = try await #require(throws: HTTPTransportError.self) { try await transport.load(endpoint) }
        #expect(server.requests.count == 3)
        #expect(error.code == .unacceptableStatus(503))
        #expect(error.attempts == 3)
        #expect(error.description.contains("after 3 attempts"))
        // The count travels in the error the retry middleware throws, with the last response and its body.
        #expect(error.response?.statusCode == 503)
        #expect(error.body?.text == "busy")
        #expect(clock.sleeps.count == 2)

        // Without a retry middleware, one attempt is all there was.
        let once = try await #require(throws: HTTPTransportError.self) { try await server.load(endpoint) }
        #expect(once.attempts == 1)
    }

    @Test func aCustomExpectedStatusAcceptsOtherCodes() async throws {
        let endpoint = Endpoint<User?>(json: .get, url: try apiURL(), expectedStatusCode: { $0 == 200 || $0 == 404 })
        #expect(try await StubTransport(status: 404).load(endpoint) == nil)
    }

    @Test(arguments: [HTTPTransportError.Code.cancelled, .timedOut, .cannotConnect])
    func transportFailuresPassThroughDistinguishable(code: HTTPTransportError.Code) async throws {
        let transport = StubTransport(failingWith: HTTPTransportError(code, underlyingError: URLError(.unknown)))
        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.load(Endpoint<()>(.get, url: try apiURL()))
        }
        #expect(error.code == code)
        #expect(error.underlyingError is URLError)
    }

    @Test func decodingErrorsComeFromParse() async throws {
        let transport = StubTransport(body: "[1, 2]")
        await #expect(throws: EndpointError.self) {
            try await transport.load(Endpoint<User>(json: .get, url: try apiURL()))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func parsingDoesNotRunOnTheCallersActor() async throws {
        let caller = CallerActor()
        let ranOnCaller = Locked<Bool?>(nil)
        let executor = caller.executor
        let endpoint = Endpoint<User>(json: .get, url: try apiURL()).map { user in
            ranOnCaller.withLock { $0 = executor.isCurrent }
            return user
        }
        #expect(await caller.isOnOwnExecutor())
        _ = try await caller.load(endpoint, on: StubTransport(body: #"{"name":"Ada"}"#))
        #expect(ranOnCaller.withLock { $0 } == false)
    }
}

/// An executor that knows whether it is running the current code.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class RecognizableExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "RecognizableExecutor")
    private let key = DispatchSpecificKey<Bool>()

    init() { queue.setSpecific(key: key, value: true) }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// An actor on a ``RecognizableExecutor``, standing in for a caller such as the main actor.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
actor CallerActor {
    let executor = RecognizableExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func isOnOwnExecutor() -> Bool { executor.isCurrent }

    func load<A: Sendable>(_ endpoint: Endpoint<A>, on transport: some HTTPTransport) async throws -> A {
        try await transport.load(endpoint)
    }
}
