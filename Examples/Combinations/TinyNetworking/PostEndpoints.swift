import Foundation
import TinyEndpoint

/// The posts API in TinyNetworking's style: each endpoint is a value, `Endpoint<A>`, made by a function.
///
/// Making an endpoint sends nothing; it is a plain description you can inspect or test, and load on any transport.
struct PostEndpoints {
    var baseURL: URL

    func all() -> Endpoint<[Post]> {
        Endpoint(json: .get, url: baseURL.appendingPathComponent("posts"))
    }

    func post(id: Int) -> Endpoint<Post> {
        Endpoint(json: .get, url: baseURL.appendingPathComponent("posts/\(id)"))
    }

    func create(_ post: Post) -> Endpoint<Post> {
        Endpoint(json: .post, url: baseURL.appendingPathComponent("posts"), body: post)
    }

    func update(_ post: Post, id: Int) -> Endpoint<Post> {
        Endpoint(json: .put, url: baseURL.appendingPathComponent("posts/\(id)"), body: post)
    }

    func delete(id: Int) -> Endpoint<Void> {
        Endpoint(.delete, url: baseURL.appendingPathComponent("posts/\(id)"))
    }
}
