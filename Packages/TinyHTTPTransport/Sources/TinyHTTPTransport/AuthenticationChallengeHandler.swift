import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate TinyKit sends with when a session has none (see `URLSession.makeDataTask(for:refusal:completion:)`).
///
/// On Linux it cancels HTTP authentication challenges, because FoundationNetworking never completes a `401`
/// carrying `WWW-Authenticate` otherwise (swift-corelibs-foundation issue 5456: `.performDefaultHandling` hangs,
/// `.useCredential` without a credential crashes). The task then fails as cancelled and keeps the `401` as its
/// `response`, which the send path returns. Server-trust challenges always get the default handling.
final class AuthenticationChallengeHandler: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // The value of NSURLAuthenticationMethodServerTrust, which FoundationNetworking marks unavailable
            // (curl validates certificates itself there); compared by value should it ever arrive.
            if challenge.protectionSpace.authenticationMethod != "NSURLAuthenticationMethodServerTrust" {
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }
}
