import Foundation
import Testing
import TinyHTTPTransport
import TinyKitExampleCombinations

@testable import TinyKitExamplesProgram

/// The program's promise: an example that takes longer than `exampleTimeoutSeconds` (15 s) counts as failed, and
/// the next one runs. A completion-handler example awaits an unstructured `Task` that the time limit's cancellation
/// never reaches; the program used to wait for it (against a server that does not answer, until the request's own
/// timeout, then blaming the 15 s limit) and now stops waiting at the limit.
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

    /// The request would take an hour: waiting for it, the test would end at the suite's one-minute limit. (No
    /// bound on the row's time: under the sanitizers, with other suites running, the 15 s stretch.)
    @Test func aCompletionHandlerExampleIsStoppedAtTheTimeLimit() async throws {
        let context = ExampleContext(
            baseURL: try #require(URL(string: "http://127.0.0.1:9")),
            transport: SilentServerTransport(requestTimeout: .seconds(3600)))

        let row = await ExamplesProgram.runOne(TinyHTTPCompletionHandler.self, context: context)

        #expect(!row.succeeded)
        #expect(row.result == "timed out after \(ExamplesProgram.exampleTimeoutSeconds) s")
    }
}
