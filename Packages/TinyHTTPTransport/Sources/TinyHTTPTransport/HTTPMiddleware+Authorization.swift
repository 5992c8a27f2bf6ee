import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPMiddleware {
    /// Adds a credential to every request and, when one is refused with `401`, refreshes it once and sends the
    /// request again with the new one.
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(.authorization(tokens))   // tokens: a CredentialProvider
    /// ```
    ///
    /// - **Single flight**: the requests refused at the same time share one call of
    ///   ``CredentialProvider/refreshCredential(rejected:)``, and a request refused with a credential that was
    ///   already replaced just uses the newer one. Then each is sent again, whatever its method (the server did
    ///   not act on a refused request).
    /// - **No loop**: a request is refreshed for at most once. When the refreshed credential is refused too, or
    ///   the refresh throws, it fails with ``HTTPTransportError`` code
    ///   ``HTTPTransportError/Code/unacceptableStatus(_:)`` `401`, the last `401` response and body, and a message
    ///   saying which (the refresh's error as `underlyingError`).
    /// - A request that already has the header is sent as it is, and its `401` returned as it is.
    ///
    /// Keep one middleware (one transport) per provider: refreshes are coordinated within one middleware.
    ///
    /// - Parameters:
    ///   - provider: Gives the credential and refreshes it.
    ///   - header: The header the credential goes in: `Authorization` unless the API uses another.
    public static func authorization(_ provider: any CredentialProvider, header: String = "Authorization")
        -> HTTPMiddleware
    {
        let refresher = SingleFlightRefresher(provider: provider)
        return HTTPMiddleware { request, next in
            guard request.value(forHTTPHeaderField: header) == nil else { return try await next.send(request) }
            let credential = try await provider.credential()
            var authorized = request
            if let credential { authorized.setHeader(header, credential) }
            let (body, response) = try await next.send(authorized)
            guard response.statusCode == 401 else { return (body, response) }

            let refreshed: String
            do {
                refreshed = try await refresher.credential(replacing: credential)
            } catch {
                throw HTTPTransportError(
                    .unacceptableStatus(401), request: authorized, response: response, body: body,
                    underlyingError: error, message: "refreshing the refused credential failed")
            }
            authorized.setHeader(header, refreshed)
            let (retriedBody, retriedResponse) = try await next.send(authorized)
            guard retriedResponse.statusCode == 401 else { return (retriedBody, retriedResponse) }
            throw HTTPTransportError(
                .unacceptableStatus(401), request: authorized, response: retriedResponse, body: retriedBody,
                message: "the refreshed credential was refused too")
        }
    }
}

/// Makes the refreshes of one provider single-flight: callers that arrive while a refresh runs wait for it, and a
/// caller whose credential was already replaced gets the newer one without a refresh.
private actor SingleFlightRefresher {
    let provider: any CredentialProvider
    private var inFlight: Task<String, any Error>?
    private var latest: String?

    init(provider: any CredentialProvider) { self.provider = provider }

    func credential(replacing rejected: String?) async throws -> String {
        if let inFlight { return try await inFlight.value }
        if let latest, latest != rejected { return latest }
        let provider = provider
        let refresh = Task { try await provider.refreshCredential(rejected: rejected) }
        inFlight = refresh
        defer { inFlight = nil }
        let credential = try await refresh.value
        latest = credential
        return credential
    }
}
