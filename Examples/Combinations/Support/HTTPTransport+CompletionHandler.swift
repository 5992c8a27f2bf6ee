import TinyEndpoint
import TinyHTTPTransport

extension HTTPTransport {
    /// Loads `endpoint` and calls `onComplete` with the result: TinyNetworking's callback shape, on any transport.
    ///
    /// TinyEndpoint offers this shape on `URLSession` (`URLSession.shared.load(endpoint) { result in … }`); this
    /// extension gives it to every `HTTPTransport`, so the same example also runs on TinyMocks.
    @discardableResult
    func load<A: Sendable>(
        _ endpoint: Endpoint<A>, onComplete: @escaping @Sendable (Result<A, any Error>) -> Void
    ) -> Task<Void, Never> {
        Task {
            do {
                onComplete(.success(try await load(endpoint)))
            } catch {
                onComplete(.failure(error))
            }
        }
    }
}
