import Foundation

/// The one send path of every `URLSession` entry: `URLSessionTransport`, `URLSession` as an `HTTPTransport`,
/// `URLSession.load(_:)` and `dataTask(endpoint:)` are adapters over
/// `URLSession.makeDataTask(for:refusal:limit:sent:completion:)`.
extension URLSession: HTTPTransport {
    /// Sends `request` with this session and returns the response, whatever its status code.
    ///
    /// Behaves like ``URLSessionTransport/send(_:)``: the request is checked first
    /// (`URLRequest.validate()`), cancelling the awaiting task cancels it, failures are mapped to
    /// ``HTTPTransportError``, and on Linux a `401` carrying `WWW-Authenticate` arrives as a `401` response
    /// (see ``URLSessionTransport``), on `URLSession.shared` and on a session you built too. Two things differ: the
    /// body is read whole, whatever its size (the `maximumResponseBodySize` limit is ``URLSessionTransport``'s), and
    /// on Linux that `401` can arrive without its body (FoundationNetworking hands a cancelled task's handler no data).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await send(request, limit: nil)
    }

    /// ``send(_:)``, refusing a response body over `limit` bytes (when the session's delegate is TinyKit's).
    func send(_ request: URLRequest, limit: Int?) async throws -> (Data, HTTPURLResponse) {
        let started = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = makeDataTask(for: request, limit: limit, sent: started) { continuation.resume(with: $0) }
                if started.withLock({ $0.cancelled }) { task.cancel() }
                task.resume()
            }
        } onCancel: {
            started.withLock { started in
                started.cancelled = true
                return started.task
            }?.cancel()
        }
    }

    /// Creates, without resuming it, the data task that sends `request`, and calls `completion` once with the
    /// response (whatever its status) or the failure as an ``HTTPTransportError``.
    ///
    /// - The request is checked with `URLRequest.validate()`; a refused request (or a `refusal` given by the caller,
    ///   for example an endpoint's body that could not be encoded) fails with that error and the returned task is
    ///   already cancelled: nothing is sent.
    /// - On Linux, a session without a delegate sends through its twin: a session with the same configuration (so
    ///   the same cookies, cache and credentials) whose delegate cancels HTTP authentication challenges. A session
    ///   with its own delegate keeps it: that delegate answers its challenges. So on Linux, `invalidateAndCancel()`
    ///   on a session without a delegate does not reach the requests in flight (they run on the twin): cancel their
    ///   tasks, or the tasks awaiting them, instead.
    /// - A task failed as cancelled whose response is a `401` or `407` is a cancelled challenge, its response the
    ///   result, when the session's delegate cancelled the challenge: TinyKit's delegate says whether it did (so
    ///   cancelling the returned task fails as cancelled, whatever has arrived); another delegate is taken to have, and
    ///   a session without one (on Apple platforms) cannot have.
    /// - With a `limit`, a response body over `limit` bytes fails (when the session's delegate is TinyKit's).
    /// - The task is recorded in `sent`, with whether the awaiting caller cancelled it: `cancelled` (set by an async
    ///   caller's cancellation handler) tells a cancelled challenge from the caller's own cancellation.
    @_spi(TinyKit) public func makeDataTask(
        for request: URLRequest, refusal: (any Error)? = nil, limit: Int? = nil,
        sent: Locked<(task: URLSessionDataTask?, cancelled: Bool)> = Locked((nil, false)),
        completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), any Error>) -> Void
    ) -> URLSessionDataTask {
        let session = challengeAnsweringSession
        // Who may have cancelled a challenge: TinyKit's delegate knows, another may have, no delegate cannot have.
        let (hasDelegate, delegate) = session.delegate.map { (true, $0 as? SessionDelegate) } ?? (false, nil)
        // TinyKit's delegate checked its session's configuration once; one of a session with another is checked here.
        let foreign = delegate == nil && hasDelegate ? session.configuration : nil
        do {
            if let refusal { throw refusal }
            try request.validate()
            if let refused = foreign.flatMap(SessionDelegate.refusal(of:)) ?? delegate?.refusal {
                throw HTTPTransportError(mapping: refused, request: request)
            }
        } catch {
            // A task only to hand back, cancelled before anyone can resume it; its URL is never contacted. An http
            // one: FoundationNetworking never ends a task it has no protocol for (`HTTPS://`, `file:`), even cancelled.
            let url = request.url.flatMap { ["http", "https"].contains($0.scheme) ? $0 : nil }
            let placeholder = url ?? URL(string: "http://refused.invalid/") ?? URL(fileURLWithPath: "/")
            let task = session.dataTask(with: placeholder) { _, _, _ in completion(.failure(error)) }
            task.cancel()
            return task
        }
        // The outcome of the finished task: the response, or the failure mapped to an ``HTTPTransportError``.
        let finish: SessionDelegate.Completion = { data, response, error in
            let sentTask = sent.withLock { $0 }
            if let error {
                let code = HTTPTransportError.urlErrorCode(of: error)
                // A cancelled authentication challenge: its response is the result. The delegate is asked first, so
                // that the note of every cancelled task is dropped.
                if code == .cancelled, let task = sentTask.task, delegate?.cancelledChallenge(of: task) ?? hasDelegate,
                    !sentTask.cancelled, let challenged = task.response as? HTTPURLResponse,
                    [401, 407].contains(challenged.statusCode)
                {
                    return completion(.success((data ?? Data(), challenged)))
                }
                var mapped = HTTPTransportError(mapping: error, request: request)
                // A failure after the head keeps it (FoundationNetworking hands a completion handler none).
                let head = response ?? sentTask.task?.response
                mapped.response = mapped.response ?? head as? HTTPURLResponse
                #if canImport(FoundationNetworking)
                    // libcurl's "Empty reply from server": a connection closed before any response, which Apple
                    // platforms (networkConnectionLost) and AsyncHTTPClient report as such.
                    if head == nil, code == .badServerResponse {
                        mapped.code = .cannotConnect
                        mapped.message = "the server closed the connection before any response"
                    }
                    // libcurl's "transfer closed with n bytes remaining to read" (or "with outstanding read data"),
                    // told from its other errors only by that text (all are URLError -1; a completion handler gets no
                    // head with it): the connection closed in the body, which Apple platforms report as
                    // networkConnectionLost, AsyncHTTPClient as a closed one.
                    let text = code == .unknown ? (error as NSError).localizedDescription : ""
                    if text.hasPrefix("transfer closed with") {
                        mapped.code = .cannotConnect
                        mapped.message = "the server closed the connection before the response was complete"
                    }
                    // libcurl's "Failed writing header": FoundationNetworking refused a field line of the head, some
                    // of them legal (RFC 9112 §5: `Name:value`, a value of whitespace alone, a byte over 0x7F).
                    if text.hasPrefix("Failed writing header") {
                        mapped.message =
                            "FoundationNetworking could not read a field line of the response head (AsyncHTTPClient can)"
                    }
                #endif
                // The delegate's refusal of a body too large stands, even when the caller cancelled meanwhile.
                if sentTask.cancelled, !(error is HTTPTransportError) { mapped.code = .cancelled }
                return completion(.failure(mapped))
            }
            guard let http = response as? HTTPURLResponse else {
                let message = "expected an HTTP response, got \(response.map { "\(type(of: $0))" } ?? "no response")"
                return completion(.failure(HTTPTransportError(.other, request: request, message: message)))
            }
            completion(.success((data ?? Data(), http)))
        }
        #if canImport(FoundationNetworking)
            var request = request
            // libcurl counts whole seconds (0.5 s would time out at once) and FoundationNetworking traps on a timeout
            // over `Int.max` milliseconds: such a timeout is set again, made one libcurl takes. (Only then: setting it
            // copies the request, about 0.5 % of a request's instructions.)
            var timeout = request.timeoutInterval
            // A request left at the default 60 s takes the configuration's, rounded as TinyKit's sessions round it.
            if timeout == 60, let configured = foreign?.timeoutIntervalForRequest { timeout = configured }
            let curlTimeout = SessionDelegate.curlTimeout(timeout)
            if curlTimeout != timeout { request.timeoutInterval = curlTimeout }
            // It sends only a lower-case scheme (schemes are case-insensitive: `HTTP://` is `http://`).
            if let url = request.url, let scheme = url.scheme, scheme.utf8.contains(where: { (65...90).contains($0) }),
                var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            {
                components.scheme = scheme.lowercased()
                request.url = components.url ?? url
            }
        #endif
        let task: URLSessionDataTask
        // Without a limit, a completion handler: collecting through the delegate costs about 1.5 % more instructions
        // a request (callgrind), but only it gets a cancelled challenge's body on Linux.
        if let limit, let delegate {
            task = session.dataTask(with: request)
            delegate.collect(task, limit: limit, completion: finish)
        } else {
            task = session.dataTask(with: request, completionHandler: finish)
        }
        sent.withLock { $0.task = task }
        return task
    }

    /// The session whose delegate answers this session's authentication challenges: itself, or on Linux, for a
    /// session without a delegate, its twin (made once per session and kept until the session is gone).
    private var challengeAnsweringSession: URLSession {
        #if canImport(FoundationNetworking)
            guard delegate == nil else { return self }
            let (twin, abandoned) = Self.twins.withLock { twins -> (URLSession, [URLSession]) in
                if let twin = twins[ObjectIdentifier(self)], twin.original === self { return (twin.session, []) }
                let abandoned = twins.filter { $0.value.original == nil }
                for id in abandoned.keys { twins[id] = nil }
                let twin = SessionDelegate.session(configuration: configuration)
                twins[ObjectIdentifier(self)] = Twin(original: self, session: twin)
                return (twin, abandoned.values.map(\.session))
            }
            // Outside the lock: invalidating calls into FoundationNetworking, which must not wait on TinyKit's lock.
            for session in abandoned { session.finishTasksAndInvalidate() }
            return twin
        #else
            return self
        #endif
    }

    #if canImport(FoundationNetworking)
        /// The twin of a session without a delegate, kept while that session lives.
        private struct Twin: Sendable {
            weak var original: URLSession?
            let session: URLSession
        }

        /// The twins made so far, by the identity of their original. A cache of derived values that nothing
        /// outside this file reads or replaces; an entry whose original is gone is invalidated at the next insertion.
        private static let twins = Locked<[ObjectIdentifier: Twin]>([:])
    #endif
}
