import Foundation

/// The session delegate TinyKit sends with when a session has none (see
/// `URLSession.makeDataTask(for:refusal:limit:sent:completion:)`).
///
/// On Linux it cancels HTTP authentication challenges, because FoundationNetworking never completes a `401`
/// carrying `WWW-Authenticate` otherwise (swift-corelibs-foundation issue 5456: `.performDefaultHandling` hangs,
/// `.useCredential` without a credential crashes). The task then fails as cancelled and keeps the `401` as its
/// `response`, which the send path returns; the delegate notes which tasks it cancelled so, so that a caller's own
/// `cancel()` after a `401` arrived still fails as cancelled. (A note is dropped when the send path reads it: a task
/// made directly on this delegate's session leaves one behind, an integer, when its challenge was cancelled.)
/// Server-trust challenges always get the default handling.
///
/// It also collects the body of each task sent with a size limit (``collect(_:limit:completion:)``), refusing the
/// response at its head when its `Content-Length` exceeds the limit, or as soon as the bytes received so far
/// do: a body too large is never held whole. On Linux it mends FoundationNetworking's redirects
/// (`urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)`), and it refuses every request of
/// a configuration whose `httpAdditionalHeaders` hold a header a request may not (``refusal``).
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// A session with `configuration`, a new `SessionDelegate`, and on Linux a delegate queue that costs a
    /// dispatch per callback instead of an `Operation` (see ``SerialDelegateQueue``): the session of a
    /// `URLSessionTransport` and the twin of a session without a delegate.
    static func session(configuration: URLSessionConfiguration) -> URLSession {
        #if canImport(FoundationNetworking)
            let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
            configuration.timeoutIntervalForRequest = curlTimeout(configuration.timeoutIntervalForRequest)
            let queue: OperationQueue? = SerialDelegateQueue()
        #else
            let queue: OperationQueue? = nil
        #endif
        return URLSession(configuration: configuration, delegate: SessionDelegate(configuration), delegateQueue: queue)
    }

    #if canImport(FoundationNetworking)
        /// A timeout libcurl takes as meant: it counts whole seconds (0.5 s would time out at once), so rounded up, a
        /// timeout never comes early; FoundationNetworking traps on one over `Int.max` milliseconds, and times out at
        /// once with 0 or less, so infinity (of either sign), NaN, 0 or less (no deadline, as on the other transports)
        /// and anything over 2^31 s (68 years) are 2^31 s.
        static func curlTimeout(_ seconds: TimeInterval) -> TimeInterval {
            seconds.isFinite && seconds > 0 ? min(seconds.rounded(.up), 2_147_483_648) : 2_147_483_648
        }
    #endif

    /// Who gets a collected body at the end, with the task's response and error (for a body over its limit, an
    /// ``HTTPTransportError`` saying so): what a data task's completion handler gets.
    typealias Completion = @Sendable (_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) -> Void

    /// A body being collected: its limit, the bytes so far, whether it went over, and who gets it at the end; and
    /// the task's response, as the delegate is handed it (each read of `URLSessionTask.response` is a
    /// `DispatchQueue.sync` on Linux, about 3,000 instructions).
    private struct Body {
        let limit: Int
        var data = Data()
        var isTooLarge = false
        var response: URLResponse?
        let completion: Completion

        /// Whether the response's body came compressed (FoundationNetworking decompresses it).
        var isCompressed: Bool {
            ((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") ?? "identity") != "identity"
        }

        /// Takes the response `head`, if given, and adds `chunk` of the body, or, when the body goes over its limit
        /// with it (or the response announced more), lets go of the bytes so far and marks it too large: whether it
        /// went over now. Mutated in place in the dictionary, so `data` is appended to without a copy.
        mutating func receive(_ chunk: Data, head: URLResponse? = nil) -> Bool {
            if let head { response = head }
            guard !isTooLarge else { return false }
            // A compressed body's `Content-Length` counts compressed bytes, the limit decompressed ones.
            if data.count + chunk.count > limit || response?.expectedContentLength ?? -1 > limit && !isCompressed {
                (isTooLarge, data) = (true, Data())
                return true
            }
            // A small body comes in one piece: keep it as it is rather than copy it.
            if data.isEmpty { data = chunk } else { data.append(chunk) }
            return false
        }
    }

    /// Why every request of the session is refused: a header of its configuration's `httpAdditionalHeaders` that
    /// `URLRequest.validate()` refuses in a request (FoundationNetworking adds them to every request unchecked).
    let refusal: HTTPTransportError?

    init(_ configuration: URLSessionConfiguration? = nil) { refusal = configuration.flatMap(Self.refusal(of:)) }

    /// Why every request of a session with `configuration` is refused, `nil` when none is.
    static func refusal(of configuration: URLSessionConfiguration) -> HTTPTransportError? {
        do throws(HTTPTransportError) {
            for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
                try URLRequest.validateHeaderField(name: "\(name)", value: "\(value)")
            }
            return nil
        } catch {
            let reason = error.message ?? "a header is refused"
            return HTTPTransportError(
                .invalidRequest, message: "in the session configuration's httpAdditionalHeaders, \(reason)")
        }
    }

    /// The bodies being collected, by task identifier (unique within the one session this delegate serves).
    private let bodies = Locked([Int: Body]())
    /// The tasks whose HTTP authentication challenge this delegate cancelled (on Linux), by task identifier, until
    /// the send path asks (``cancelledChallenge(of:)``).
    private let cancelledChallenges = Locked(Set<Int>())

    /// Whether this delegate cancelled an authentication challenge of `task`, whose cancellation then is no one's
    /// `cancel()`: asked once, when the task failed as cancelled.
    func cancelledChallenge(of task: URLSessionTask) -> Bool {
        cancelledChallenges.withLock { $0.remove(task.taskIdentifier) != nil }
    }

    /// Collects the body of `task` (made without a completion handler) and calls `completion` when it ends; a body
    /// over `limit` bytes ends it at once, failed with code ``HTTPTransportError/Code/other``.
    func collect(_ task: URLSessionDataTask, limit: Int, completion: @escaping Completion) {
        bodies.withLock { $0[task.taskIdentifier] = Body(limit: limit, completion: completion) }
    }

    /// Keeps the response of a collected body, and ends the task at once when its `Content-Length` is over the limit.
    /// (FoundationNetworking makes this call, through the delegate queue, for every data task of a session whose
    /// delegate is a data delegate, whether it is written or not; it ignores the disposition.)
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        receive(Data(), head: response, of: dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        receive(data, of: dataTask)
    }

    /// Hands a collected body `chunk` (and the `head`) to the task's body, and cancels the task when it went over.
    private func receive(_ chunk: Data, head: URLResponse? = nil, of task: URLSessionDataTask) {
        // Through its index, the body is changed in place (an optional chain on the subscript moves it out and back).
        let tooLarge = bodies.withLock { bodies in
            bodies.index(forKey: task.taskIdentifier).map { bodies.values[$0].receive(chunk, head: head) } ?? false
        }
        if tooLarge { task.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let body = bodies.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        var error = error
        if body.isTooLarge {
            let message = "the response body is larger than maximumResponseBodySize, \(body.limit) bytes"
            error = HTTPTransportError(.other, message: message)
        }
        // The head the delegate was handed; the task's own where none was (a delegate call the platform did not make).
        body.completion(body.data, body.response ?? task.response, error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // The value of NSURLAuthenticationMethodServerTrust, which FoundationNetworking marks unavailable
            // (curl validates certificates itself there); compared by value should it ever arrive.
            guard challenge.protectionSpace.authenticationMethod == "NSURLAuthenticationMethodServerTrust" else {
                cancelledChallenges.withLock { _ = $0.insert(task.taskIdentifier) }
                return completionHandler(.cancelAuthenticationChallenge, nil)
            }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }

    #if canImport(FoundationNetworking)
        /// Mends FoundationNetworking's redirects to what Apple platforms and curl do: a relative `Location` resolved
        /// against the URL that answered (not the root), a `HEAD` kept a `HEAD` after a `303` (not made a `GET`), no
        /// `Origin` and no credential sent to another origin (`HTTPRedaction.redirect(from:to:drops:)`), and the
        /// stored cookies of the new URL sent (it adds none to a request a delegate hands back). A `Location` that is
        /// not an `http` or `https` URL with a host (an app's `myapp://callback`) is not followed: the redirect comes
        /// back as the response, as `AsyncHTTPClientTransport` returns it, rather than as a failure blamed on the
        /// request. The session's own `httpAdditionalHeaders` are added to every request after this: when they carry
        /// one of those headers, a redirect to another origin is not followed, and comes back as the response.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            var next = request
            let from = response.url ?? task.currentRequest?.url
            // Without the whitespace after it, which FoundationNetworking keeps (RFC 9110 §5.5: not part of the value).
            if let from, let location = response.value(forHTTPHeaderField: "Location") {
                let location = location.trimmingCharacters(in: .whitespaces)
                next.url = URL(string: location, relativeTo: from)?.absoluteURL ?? next.url
            }
            guard let to = next.url, to.isHTTPWithHost else { return completionHandler(nil) }
            if task.currentRequest?.httpMethod == "HEAD" { next.httpMethod = "HEAD" }
            let configuration = session.configuration
            // Nothing is dropped without a URL that answered to compare `to` with.
            func drops(_ name: String) -> Bool {
                from.map { HTTPRedaction.redirect(from: $0, to: to, drops: name) } ?? false
            }
            // A credential of the session's own cannot be taken off: the redirect is returned instead.
            if (configuration.httpAdditionalHeaders ?? [:]).keys.contains(where: { drops("\($0)") }) {
                return completionHandler(nil)
            }
            for name in (next.allHTTPHeaderFields ?? [:]).keys where drops(name) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
            // (An empty list of cookies makes no header field.)
            if configuration.httpShouldSetCookies, let cookies = configuration.httpCookieStorage?.cookies(for: to) {
                for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) {
                    next.setValue(value, forHTTPHeaderField: name)
                }
            }
            completionHandler(next)
        }
    #endif
}

#if canImport(FoundationNetworking)
    /// The delegate queue of the sessions TinyKit makes on Linux: a serial queue, as `URLSession`'s default one,
    /// that runs each block on a `DispatchQueue`.
    ///
    /// FoundationNetworking hands every delegate call and completion handler of a session to its delegate queue with
    /// `addOperation(_:)`, a block. On an `OperationQueue` each block costs about 18,000 instructions (an `Operation`,
    /// its observers and locks), on a dispatch queue about 2,000: a request sent with a size limit makes three such
    /// calls (response, data, completion), one without makes one. The blocks run one at a time, in the order they
    /// were added, as on a serial `OperationQueue`. The block forms are redirected (FoundationNetworking uses only
    /// `addOperation(_:)`), and waiting for them: an `Operation` object added by hand still runs as an `OperationQueue`
    /// runs it.
    final class SerialDelegateQueue: OperationQueue, @unchecked Sendable {
        private let queue = DispatchQueue(label: "TinyKit.SessionDelegate")

        override init() {
            super.init()
            maxConcurrentOperationCount = 1
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) { queue.async(execute: block) }

        override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) { queue.async(execute: barrier) }

        override func waitUntilAllOperationsAreFinished() {
            super.waitUntilAllOperationsAreFinished()
            queue.sync {}
        }
    }
#endif
