import Foundation
import Testing
import TinyHTTPTransport
import TinyKitExampleCombinations

@testable import TinyKitExamplesProgram

/// The program's promise: an example that takes longer than `exampleTimeoutSeconds` (15 s) counts as failed, and
/// the next one runs. A completion-handler example awaits an unstructured `Task` that the time limit's cancellation
/// never reaches, so against a server that does not answer the row waits for the request's own timeout (60 s for
/// `URLRequest(method:url:)`, seen with `--base-url` on a server holding `GET /todos/3`: "FAILED: timed out after
/// 15 s  60004.2 ms") and then blames the 15 s limit.
@Suite(.timeLimit(.minutes(1))) struct ExampleTimeLimitHuntTests {
    /// A server that never answers, behind a transport that honours cancellation (as `URLSessionTransport` does)
    /// and otherwise gives up after `requestTimeout` (standing in for the request's `timeoutInterval`).
    struct SilentServerTransport: HTTPTransport {
        var requestTimeout: Duration

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            try await Task.sleep(for: requestTimeout)
            throw HTTPTransportError(.timedOut, request: request)
        }
    }

    @Test func aCompletionHandlerExampleIsStoppedAtTheTimeLimit() async throws {
        let limit = Double(ExamplesProgram.exampleTimeoutSeconds) * 1000
        let context = ExampleContext(
            baseURL: try #require(URL(string: "http://127.0.0.1:9")),
            transport: SilentServerTransport(requestTimeout: .seconds(ExamplesProgram.exampleTimeoutSeconds + 4)))

        let row = await ExamplesProgram.runOne(TinyHTTPCompletionHandler.self, context: context)

        #expect(!row.succeeded)
        #expect(row.result == "timed out after \(ExamplesProgram.exampleTimeoutSeconds) s")
        #expect(row.milliseconds < limit + 1500, "the row took \(row.milliseconds) ms, the limit is \(limit) ms")
    }
}
