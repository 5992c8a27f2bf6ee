import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs one request as a completion-handler data task that the awaiting task can cancel.
///
/// Completion-handler data tasks are used because the session delegate's challenge callback fires for them on
/// every platform (the per-task delegate of `data(for:delegate:)` is ignored on Linux).
enum DataTaskRunner {
    static func send(
        _ request: URLRequest, on session: URLSession, challenges: AuthenticationChallengeHandler?
    ) async throws -> (Data, HTTPURLResponse) {
        try request.validateHeaders()
        try request.validateMethod()
        guard request.url != nil else {
            throw HTTPTransportError(.invalidRequest, request: request, message: "the request has no URL")
        }
        let cancellation = CancellableTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    // Only a failed task can be a cancelled challenge: skip the locks on the common, successful path.
                    let challenged = error == nil ? nil : cancellation.challengedResponse(recordedBy: challenges)
                    continuation.resume(
                        with: result(
                            data: data, response: response, error: error, challenged: challenged,
                            cancelledByCaller: cancellation.isCancelled, request: request))
                }
                cancellation.start(task)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    private static func result(
        data: Data?, response: URLResponse?, error: (any Error)?, challenged: HTTPURLResponse?,
        cancelledByCaller: Bool, request: URLRequest
    ) -> Result<(Data, HTTPURLResponse), any Error> {
        if let error {
            if let challenged, !cancelledByCaller, HTTPTransportError.urlErrorCode(of: error) == .cancelled {
                // The 401 challenge this transport cancelled (see AuthenticationChallengeHandler).
                return .success((data ?? Data(), challenged))
            }
            var mapped = HTTPTransportError(mapping: error, request: request)
            #if canImport(FoundationNetworking)
                // libcurl's "Empty reply from server": a connection closed before any response, which Apple
                // platforms (networkConnectionLost) and AsyncHTTPClient report as such.
                if response == nil, HTTPTransportError.urlErrorCode(of: error) == .badServerResponse {
                    mapped.code = .cannotConnect
                    mapped.message = "the server closed the connection before any response"
                }
            #endif
            if cancelledByCaller { mapped.code = .cancelled }
            return .failure(mapped)
        }
        guard let http = response as? HTTPURLResponse else {
            let kind = response.map { String(describing: type(of: $0)) } ?? "no response"
            return .failure(
                HTTPTransportError(.other, request: request, message: "expected an HTTP response, got \(kind)"))
        }
        return .success((data ?? Data(), http))
    }
}

/// The data task of one request, and whether the caller cancelled it (from any thread).
// @unchecked Sendable: `task` and `cancelled` are only read and written while holding `lock`.
final class CancellableTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    /// Resumes `task`, and cancels it at once when the caller cancelled already.
    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// The `401`/`407` response of an authentication challenge that was cancelled for this task: as recorded by
    /// `challenges` (the transport's own delegate), else as the task kept it (another delegate cancelled it).
    func challengedResponse(recordedBy challenges: AuthenticationChallengeHandler?) -> HTTPURLResponse? {
        lock.lock()
        let task = self.task
        lock.unlock()
        guard let task else { return nil }
        if let challenges { return challenges.takeFailureResponse(for: task.taskIdentifier) }
        guard let response = task.response as? HTTPURLResponse, [401, 407].contains(response.statusCode) else {
            return nil
        }
        return response
    }
}
