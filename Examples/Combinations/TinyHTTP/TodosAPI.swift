import Foundation
import TinyEndpoint
import TinyHTTPTransport
import TinyStatefulEndpoint

/// The todos API in TinyHTTP's style: a type with one method per endpoint, and `all`, one `StatefulEndpoint`
/// that every screen showing the todos shares.
final class TodosAPI: Sendable {
    private let url: URL
    private let registry: EndpointRegistry
    // Declared here so you can configure them however the API needs.
    private let jsonDecoder = JSONDecoder()
    private let jsonEncoder = JSONEncoder()

    /// `store` keeps the shared endpoints' last answers across launches (none by default).
    init(
        baseURL: URL = .jsonPlaceholder, transport: any HTTPTransport = URLSessionTransport.shared,
        store: (any ResponseStore)? = nil
    ) {
        url = baseURL.appendingRelative("todos")
        registry = EndpointRegistry(transport: transport, store: store)
    }

    /// All todos, shared: created on first use, then the same instance for every caller.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    var all: StatefulEndpoint<[Todo]> {
        registry.statefulEndpoint(for: get())
    }

    func get() -> Endpoint<[Todo]> {
        var request = URLRequest(method: .get, url: url)
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: jsonDecoder.decodeResponse)
    }

    func get(id: Int) -> Endpoint<Todo> {
        var request = URLRequest(method: .get, url: urlFor(id: id))
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: jsonDecoder.decodeResponse)
    }

    /// Creates the todo when it has no id yet, otherwise replaces it.
    func put(todo: Todo) throws -> Endpoint<Todo> {
        var request: URLRequest
        if let id = todo.id {
            request = URLRequest(method: .put, url: urlFor(id: id))
        } else {
            request = URLRequest(method: .post, url: url)
        }
        request.httpAccept(.json)
        request.httpContentType(.json)
        request.httpBody = try jsonEncoder.encode(todo)
        return Endpoint(request: request, decodeResponse: jsonDecoder.decodeResponse)
    }

    func delete(id: Int) -> Endpoint<Void> {
        var request = URLRequest(method: .delete, url: urlFor(id: id))
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: EndpointExpectation.ignoreResponse)
    }

    private func urlFor(id: Int) -> URL {
        url.appendingRelative(String(id))
    }
}
