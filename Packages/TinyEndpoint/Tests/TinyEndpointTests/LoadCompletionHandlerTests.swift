import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport

/// `HTTPTransport.load(_:onComplete:)`: TinyNetworking's callback shape on any transport.
@Suite(.timeLimit(.minutes(1))) struct LoadCompletionHandlerTests {
    /// Loads with a callback and waits for it.
    func result<A: Sendable>(_ endpoint: Endpoint<A>, on transport: some HTTPTransport) async -> Result<A, any Error> {
        await withCheckedContinuation { continuation in
            transport.load(endpoint) { continuation.resume(returning: $0) }
        }
    }

    @Test func callsBackWithTheParsedValue() async throws {
        let transport = StubTransport(body: #"{"name":"Ada"}"#)
        let result = await result(Endpoint<User>(json: .get, url: try apiURL("/users/ada")), on: transport)
        #expect(try result.get() == User(name: "Ada"))
        #expect(transport.requests.count == 1)
    }

    @Test func callsBackWithTheErrorOfAnUnacceptableStatus() async throws {
        let result = await result(Endpoint<User>(json: .get, url: try apiURL()), on: StubTransport(status: 404))
        #expect(throws: HTTPTransportError.self) { try result.get() }
    }

    @Test func cancellingTheReturnedTaskCancelsTheRequest() async throws {
        let transport = StubTransport { _ in
            try await Task.sleep(for: .seconds(60))
            throw TestSupportError()
        }
        let endpoint = Endpoint<User>(json: .get, url: try apiURL())
        let result = await withCheckedContinuation { continuation in
            transport.load(endpoint) { continuation.resume(returning: $0) }.cancel()
        }
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
