import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// Claims of the documentation the code did not honour: regression tests now.
@Suite(.timeLimit(.minutes(1))) struct DocClaimTests {
    /// Nothing listens on port 1 of the loopback interface: connecting is refused at once.
    static func refused() -> Endpoint<()> {
        var endpoint = Endpoint<()>(.get, url: URL(fileURLWithPath: "/"))
        endpoint.request.url = URL(string: "http://127.0.0.1:1/nothing")
        return endpoint
    }

    /// A session delegate that does nothing: the session keeps it, and no twin is made.
    final class PlainDelegate: NSObject, URLSessionDelegate, Sendable {}

    /// Whether `session.load(_:onComplete:)` calls its handler on `queue`.
    static func completesOnQueue(_ session: URLSession, _ queue: OperationQueue) async -> Bool {
        await withCheckedContinuation { continuation in
            session.load(refused()) { _ in continuation.resume(returning: OperationQueue.current === queue) }
        }
    }

    /// `URLSession.load(_:onComplete:)` (URLSession+Endpoint.swift): "`onComplete` runs on the session's delegate
    /// queue", and `dataTask(endpoint:completionHandler:)`: "Called once, on the session's delegate queue". On Linux a
    /// session without a delegate sends through a twin session with a queue of its own (`SerialDelegateQueue`), so a
    /// session built with `delegate: nil, delegateQueue: myQueue` (`.main`, say, for UI code) calls back elsewhere.
    @Test func loadCallsBackOnTheSessionsDelegateQueue() async {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let withDelegate = URLSession(configuration: .ephemeral, delegate: PlainDelegate(), delegateQueue: queue)
        defer { withDelegate.invalidateAndCancel() }
        #expect(await Self.completesOnQueue(withDelegate, queue))

        let withoutDelegate = URLSession(configuration: .ephemeral, delegate: nil, delegateQueue: queue)
        defer { withoutDelegate.invalidateAndCancel() }
        #expect(await Self.completesOnQueue(withoutDelegate, queue))  // on Linux, through its twin and back
    }
}
