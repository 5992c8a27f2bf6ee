import Foundation

extension HTTPMiddleware {
    /// Adds a credential to every request and, when one is refused with `401`, sends it once more with a newer
    /// credential: the provider's current one when it was already replaced, else a refreshed one.
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(.authorization(tokens))   // tokens: a CredentialProvider
    /// ```
    ///
    /// - **Current first**: a request refused with a credential that is no longer the provider's
    ///   ``CredentialProvider/credential()`` (replaced by a refresh, a sign-in, another transport) is sent again with
    ///   the current one, without a refresh.
    /// - **Single flight**: the requests refused at the same time share one call of
    ///   ``CredentialProvider/refreshCredential(rejected:)``. Then each is sent again, whatever its method (the
    ///   server did not act on a refused request). When the refresh throws, every request waiting on it fails with
    ///   that error as `underlyingError`, and none is sent again. A request refused a credential that the refresh it
    ///   joined hands back gets a refresh of its own, unless that refresh was of the same credential; one cancelled while it waits ends at once, as cancelled (the
    ///   refresh goes on for the others).
    /// - **No loop**: a request is sent again at most once. When the newer credential is refused too, or the
    ///   refresh throws, it fails with ``HTTPTransportError`` code ``HTTPTransportError/Code/unacceptableStatus(_:)``
    ///   `401`, the last `401` response and body, and a message saying which (the refresh's error as
    ///   `underlyingError`).
    /// - **The refresh passes by**: requests sent while the provider refreshes, from its task, go through this
    ///   middleware untouched (no credential added, a `401` returned as it is), so a provider that refreshes
    ///   through this very transport cannot wait on its own refresh. Refreshing with a transport of its own
    ///   (without this middleware) is the clearer shape.
    /// - When ``CredentialProvider/credential()`` throws, nothing is sent: the request fails with
    ///   ``HTTPTransportError`` code ``HTTPTransportError/Code/other``, the provider's error as `underlyingError`.
    /// - A request that already has the header is sent as it is, and its `401` returned as it is.
    /// - A request with an `httpBodyStream` is not sent again (the first send read the stream): its `401` is returned,
    ///   after the credential was refreshed for the next requests.
    ///
    /// Keep one middleware (one transport) per provider: refreshes are coordinated within one middleware.
    ///
    /// - Parameters:
    ///   - provider: Gives the credential and refreshes it.
    ///   - header: The header the credential goes in: `Authorization` unless the API uses another. A redirect to
    ///     another origin goes without it when `HTTPRedaction.default` hides it: its name reads as a credential (it
    ///     holds `auth`, `token`, `key`, `secret`, `session`, `password`, `credential` or `jwt`, as `Private-Token`
    ///     does, or ends in `-api`, as Artifactory's `X-JFrog-Art-Api` does). Known issue: a header named otherwise
    ///     (Honeycomb's `X-Honeycomb-Team`) goes along (a redaction of your own that names it hides it in logs, not
    ///     from a redirect).
    public static func authorization(_ provider: any CredentialProvider, header: String = "Authorization")
        -> HTTPMiddleware
    {
        HTTPMiddleware { [refresher = SingleFlightRefresher()] request, next in
            guard request.value(forHTTPHeaderField: header) == nil, !refresher.isRefreshingHere else {
                return try await next.send(request)
            }
            let credential: String?
            do {
                credential = try await provider.credential()
            } catch {  // the provider's error (its own transport's too) is the underlying one of this request's
                let cancelled = error is CancellationError || Task.isCancelled
                let message = cancelled ? nil : "the credential provider failed"
                throw HTTPTransportError(
                    cancelled ? .cancelled : .other, request: request, underlyingError: error, message: message)
            }
            var authorized = request
            if let credential { authorized.setHeader(header, credential) }
            let (body, response) = try await next.send(authorized)
            guard response.statusCode == 401 else { return (body, response) }

            do {
                authorized.setHeader(header, try await refresher.credential(replacing: credential, from: provider))
            } catch is CancellationError where Task.isCancelled {
                throw HTTPTransportError(.cancelled, request: authorized, response: response, body: body)
            } catch {
                throw HTTPTransportError(
                    .unacceptableStatus(401), request: authorized, response: response, body: body,
                    underlyingError: error, message: "refreshing the refused credential failed")
            }
            guard request.httpBodyStream == nil else { return (body, response) }  // read by the first send
            do {
                let (retriedBody, retriedResponse) = try await next.send(authorized)
                guard retriedResponse.statusCode == 401 else { return (retriedBody, retriedResponse) }
                throw HTTPTransportError(
                    .unacceptableStatus(401), request: authorized, response: retriedResponse, body: retriedBody,
                    message: "the refreshed credential was refused too")
            } catch var failure as HTTPTransportError {
                failure.attempts += 1  // the second send counts in the attempts of whatever fails now: 2 for a 401
                throw failure
            }
        }
    }
}

/// Makes the refreshes of one provider single-flight: callers that arrive while a refresh runs wait for it and
/// share its credential or its error, and a caller whose credential was already replaced gets the provider's
/// current one without a refresh.
private final class SingleFlightRefresher: Sendable {
    /// The refresher and the number of the refresh the current task runs (or was started by): while that refresh
    /// runs, its requests pass through the middleware untouched.
    @TaskLocal private static var refreshing: (refresher: ObjectIdentifier, number: Int)?

    /// The refresh in flight and its number: when it ends it forgets itself and moves the number on, so that the
    /// next refresh has another. It gives the credential and the refused one it replaced.
    private let inFlight = Locked<(number: Int, task: Task<(String, String?), any Error>?)>((0, nil))

    /// Whether the current task runs this refresher's refresh in flight (or was started by it): a task the refresh
    /// started that outlives it sends with a credential again.
    var isRefreshingHere: Bool {
        guard let (refresher, number) = Self.refreshing, refresher == ObjectIdentifier(self) else { return false }
        return inFlight.withLock { $0.number == number }
    }

    /// A credential newer than `rejected`: the provider's current one when it differs, else a refreshed one. The
    /// refresh in flight, if any, is joined; its error is thrown to every caller waiting on it. A caller whose task
    /// is cancelled stops waiting at once (the refresh goes on for the others) with `CancellationError`.
    func credential(replacing rejected: String?, from provider: any CredentialProvider) async throws -> String {
        while true {
            try Task.checkCancellation()
            let refresh = inFlight.withLock { inFlight in
                if let running = inFlight.task { return running }
                let refresh = Task { [id = ObjectIdentifier(self), number = inFlight.number] in
                    defer { self.inFlight.withLock { $0 = ($0.number + 1, nil) } }
                    let credential = try await Self.$refreshing.withValue((id, number)) {
                        if let current = try await provider.credential(), current != rejected { return current }
                        return try await provider.refreshCredential(rejected: rejected)
                    }
                    return (credential, rejected)
                }
                inFlight.task = refresh
                return refresh
            }
            let (credential, replaced) = try await refresh.valueUnlessCancelled
            // A refresh started for another refused credential (one this caller joined) can hand back the one refused
            // here: refresh that. One that refreshed this very credential (one this caller started, say) is the
            // provider's answer, shared (a server clock ahead of it).
            if credential != rejected || replaced == rejected { return credential }
        }
    }

}
