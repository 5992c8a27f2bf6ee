import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate of ``URLSessionTransport``.
///
/// On Linux it cancels HTTP authentication challenges, because FoundationNetworking never completes a `401`
/// carrying `WWW-Authenticate` otherwise (swift-corelibs-foundation issue 5456: `.performDefaultHandling` hangs,
/// `.useCredential` without a credential crashes), and keeps the challenge's failure response, which the transport
/// then returns in place of the `cancelled` error. Server-trust challenges always get the default handling.
// @unchecked Sendable: `failureResponses` is only read and written while holding `lock`.
final class AuthenticationChallengeHandler: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var failureResponses: [Int: HTTPURLResponse] = [:]

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // The value of NSURLAuthenticationMethodServerTrust, which FoundationNetworking marks unavailable
            // (curl validates certificates itself there); compared by value should it ever arrive.
            let isServerTrust = challenge.protectionSpace.authenticationMethod == "NSURLAuthenticationMethodServerTrust"
            if !isServerTrust {
                if let response = challenge.failureResponse as? HTTPURLResponse {
                    lock.lock()
                    failureResponses[task.taskIdentifier] = response
                    lock.unlock()
                }
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }

    /// Removes and returns the `401` response of the challenge cancelled for the task `identifier`, if any.
    func takeFailureResponse(for identifier: Int) -> HTTPURLResponse? {
        lock.lock()
        defer { lock.unlock() }
        return failureResponses.removeValue(forKey: identifier)
    }
}
