import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// Sends `request` like ``send(_:)`` and also returns how many attempts a ``HTTPMiddleware/retry(_:clock:)``
    /// middleware inside this transport made for it (1 when there is none).
    ///
    /// A retry middleware returns the last response when a retryable status persists; a caller that turns that
    /// status into an error (as `Endpoint` loading does) uses this count to say how many attempts were made.
    ///
    /// - Throws: What ``send(_:)`` throws.
    public func sendCountingAttempts(_ request: URLRequest) async throws -> (Data, HTTPURLResponse, attempts: Int) {
        let counter = AttemptCounter()
        let (body, response) = try await AttemptCounter.$current.withValue(counter) { try await send(request) }
        return (body, response, counter.value)
    }
}

/// The attempt count of one ``HTTPTransport/sendCountingAttempts(_:)`` call, written by the retry middleware.
// @unchecked Sendable: `count` is only read and written while holding `lock`.
final class AttemptCounter: @unchecked Sendable {
    @TaskLocal static var current: AttemptCounter?

    private let lock = NSLock()
    private var count = 1

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func record(_ attempt: Int) {
        lock.lock()
        count = max(count, attempt)
        lock.unlock()
    }
}
