import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// Concurrency audit: interleavings the compiler cannot see (a known issue while the library has the bug).
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyAuditTests {
    /// `MockTransport.swift` `send(_:)`: an answer is taken under the lock (`nextRouteAnswer`) and, by a request
    /// cancelled during its delay, given back under another acquisition; it was given back only if no later request
    /// took the next one meanwhile. Two requests waiting on their delay, both cancelled, the earlier first: the
    /// earlier gave nothing back (a later one took the next answer), the later gave back its own. Both used up no
    /// answer, yet the next request got the second answer and the first was never served. Cancelled in the other
    /// order, the next request got the first answer.
    @Test(arguments: [false, true]) func twoCancelledRequestsUseUpNoAnswerWhateverTheOrderOfTheirCancellations(
        earlierFirst: Bool
    ) async throws {
        let clock = BlockingClock(blocking: 2)
        let mock = MockTransport(clock: clock)
        mock.register(.get, "/next", delay: .seconds(1), .text("first"), .text("second"), .text("third"))
        let next = try request(.get, "https://h/next")
        var started = clock.started.makeAsyncIterator()
        let earlier = Task { try await mock.send(next) }
        await started.next()  // took "first", waits
        let later = Task { try await mock.send(next) }
        await started.next()  // took "second", waits

        for task in earlierFirst ? [earlier, later] : [later, earlier] {
            task.cancel()
            _ = await task.result
        }
        let (body, _) = try await mock.send(next)

        #expect(String(decoding: body, as: UTF8.self) == "first")
    }
}
