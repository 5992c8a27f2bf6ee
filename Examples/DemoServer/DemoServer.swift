import FlyingFox
import Foundation

/// ``DemoAPI`` served over HTTP on `127.0.0.1`, on a free port chosen by the system.
///
/// ```swift
/// let server = try await DemoServer.start()
/// defer { Task { await server.stop() } }
/// print(server.baseURL)  // http://127.0.0.1:54321
/// ```
public final class DemoServer: Sendable {
    /// The URL the API is served at, without a trailing slash: `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The API served; shared with the server, so a test can look at or change its data.
    public let api: DemoAPI
    private let server: HTTPServer
    private let task: Task<Void, any Error>

    private init(baseURL: URL, api: DemoAPI, server: HTTPServer, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.api = api
        self.server = server
        self.task = task
    }

    /// Starts a server with fresh seed data and returns once it is listening.
    ///
    /// - Parameters:
    ///   - port: The port to listen on; 0 (the default) for a free port chosen by the system.
    ///   - api: The API to serve.
    public static func start(port: UInt16 = 0, api: DemoAPI = DemoAPI()) async throws -> DemoServer {
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: port), logger: .disabled, handler: DemoHandler(api: api))
        let task = Task { try await server.run() }
        do {
            // As long as `TestServer` waits: FlyingFox's default of 5 s ran out under the sanitizers on a slow machine,
            // while the root suite started many servers at once.
            try await server.waitUntilListening(timeout: 30)
            guard case .ip4(_, let port)? = await server.listeningAddress,
                let baseURL = URL(string: "http://127.0.0.1:\(port)")
            else { throw DemoServerError() }
            return DemoServer(baseURL: baseURL, api: api, server: server, task: task)
        } catch {
            task.cancel()
            throw error
        }
    }

    /// Stops listening and closes the connections.
    public func stop() async {
        await server.stop()
        task.cancel()
    }
}

/// The server did not report an IPv4 address after it started listening.
struct DemoServerError: Error, CustomStringConvertible {
    var description: String { "the demo server did not report its port" }
}

/// Forwards every request to ``DemoAPI``.
private struct DemoHandler: HTTPHandler {
    let api: DemoAPI

    func handleRequest(_ request: FlyingFox.HTTPRequest) async throws -> HTTPResponse {
        // HEAD is answered as GET, without the body (RFC 9110 §9.3.2: what `curl -I` sends).
        let isHead = request.method == .HEAD
        let demoRequest = DemoRequest(
            method: isHead ? "GET" : request.method.rawValue, path: request.path,
            query: request.query.map { (name: $0.name, value: $0.value) }, body: try await request.bodyData)
        let response = api.handle(demoRequest)
        // `Connection: close`: FlyingFox writes the head and the body of a response separately, and on a kept-alive
        // connection the second write waits for the client's delayed ACK (Nagle): about 40 ms per request with
        // URLSession on Linux. A fresh connection per request takes about 1 ms on loopback.
        var headers: [HTTPHeader: String] = [.contentType: "application/json; charset=utf-8", .connection: "close"]
        // A GET's answer carries an ETag, the hash of its body; sent back in `If-None-Match` (alone or in a list, weak
        // or not, or `*`: RFC 9110 §13.1.2 compares weakly), it gets a `304`.
        if request.method == .GET || isHead, response.status == 200 {
            let etag = "\"\(response.bodyData.reduce(UInt64(5381)) { $0 &* 33 &+ UInt64($1) })\""
            headers[HTTPHeader("ETag")] = etag
            let tags = (request.headers[HTTPHeader("If-None-Match")] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if tags.contains(where: { $0 == "*" || $0.trimmingPrefix("W/") == etag }) {
                return HTTPResponse(
                    statusCode: HTTPStatusCode(304, phrase: "Not Modified"), headers: HTTPHeaders(headers))
            }
        }
        // HEAD: the GET's length, without its body (RFC 9110 §8.6).
        if isHead { headers[.contentLength] = String(response.bodyData.count) }
        // A 405 names the methods the path takes (RFC 9110 §15.5.6): a collection, a record, or a nested list.
        if response.status == 405 {
            let depth = request.path.split(separator: "/").count
            headers[HTTPHeader("Allow")] =
                depth == 1 ? "GET, HEAD, POST" : depth == 2 ? "GET, HEAD, PUT, PATCH, DELETE" : "GET, HEAD"
        }
        return HTTPResponse(
            statusCode: HTTPStatusCode(response.status, phrase: Self.phrase(for: response.status)),
            headers: HTTPHeaders(headers), body: isHead ? Data() : response.bodyData)
    }

    static func phrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        default: "Status \(status)"
        }
    }
}
