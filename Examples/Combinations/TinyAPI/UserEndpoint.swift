import Foundation
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks

/// The users API in tinyAPI's style: an enum with one case per call.
enum UserEndpoint {
    case list
    case detail(id: Int)
    case create(User)
    case update(id: Int, user: User)
    case delete(id: Int)
}

extension UserEndpoint: TinyAPIEndpoint {
    var baseURL: String { APIClientDependency.current.baseURL }

    var path: String {
        switch self {
        case .list, .create: "/users"
        case .detail(let id), .update(let id, _), .delete(let id): "/users/\(id)"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .list, .detail: .GET
        case .create: .POST
        case .update: .PUT
        case .delete: .DELETE
        }
    }

    var body: Data? {
        get throws {
            switch self {
            case .create(let user), .update(_, let user): try JSONEncoder().encode(user)
            case .list, .detail, .delete: nil
            }
        }
    }
}

/// Which client and server the app talks to, switched for a whole task tree: the app runs on `live`, tests and
/// previews inside `APIClientDependency.$current.withValue(…) { … }`.
struct APIClientDependency: Sendable {
    let client: any APIClientProtocol
    let baseURL: String

    static let live = APIClientDependency(client: TinyAPIClient.live, baseURL: "https://jsonplaceholder.typicode.com")
    /// Answers from the `mock_<method>_<path>.json` files of the app bundle, after a short delay.
    static var preview: APIClientDependency {
        APIClientDependency(client: MockTinyAPIClient.preview, baseURL: "https://jsonplaceholder.typicode.com")
    }

    @TaskLocal static var current = live
}
