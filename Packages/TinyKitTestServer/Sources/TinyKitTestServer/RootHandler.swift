import FlyingFox
import FlyingSocks
import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// Records every request, then answers it from the registered routes or the built-in ones.
struct RootHandler: HTTPHandler {
    let state: SharedState

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        let body = try await request.bodyData
        request.setBodyData(body)
        let recorded = RecordedRequest(
            method: request.method.rawValue,
            // As sent: FlyingFox's `path` drops a trailing slash and resolves dot segments.
            path: request.target.path(percentEncoded: false),
            rawQuery: request.target.query(percentEncoded: true),
            query: request.query.map { RecordedRequest.QueryItem(name: $0.name, value: $0.value) },
            headers: Dictionary(
                request.headers.map { ($0.key.rawValue.lowercased(), $0.value) }, uniquingKeysWith: { $0 + ", " + $1 }),
            body: body)
        let routes = state.withLock { state in
            state.requests.append(recorded)
            return state.routes
        }
        var response: TestResponse?
        for (route, handler) in routes where await route ~= request {
            do {
                response = try await handler(recorded)
            } catch {  // FlyingFox would answer a bare 500 and drop the error: a test could not tell it from its own
                response = .text(500, "the route \(route) threw: \(error)")
            }
            break
        }
        return try await send(response ?? builtIn(recorded), toHEAD: recorded.method == "HEAD")
    }

    private func builtIn(_ request: RecordedRequest) throws -> TestResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        switch parts.first {
        case "echo":
            return try .json(200, request)
        case "status":
            let code = parts.count > 1 ? Int(parts[1]) ?? 400 : 400
            let hasBody = code >= 200 && code != 204 && code != 304
            return hasBody ? .json(code, #"{"status":\#(code)}"#) : .empty(code)
        case "slow":
            let seconds = request.queryValue("seconds").flatMap(TimeInterval.init) ?? 2
            return TestResponse.json(200, #"{"slow":true}"#).delayed(by: seconds)
        case "trickle":
            let count = request.queryValue("bytes").flatMap(Int.init) ?? 100
            let interval = request.queryValue("interval").flatMap(TimeInterval.init) ?? 0.1
            return TestResponse.text(200, String(repeating: "x", count: count)).trickled(byteInterval: interval)
        case "redirect":
            let status = request.queryValue("status").flatMap(Int.init) ?? 302
            return .redirect(to: request.queryValue("to") ?? "/echo", status: status)
        case "gzip":
            return .gzippedJSON(200, TestServer.gzipJSON)
        case "bytes":
            let count = request.queryValue("count").flatMap(Int.init) ?? 1024
            return TestResponse(
                status: 200, headers: ["Content-Type": "application/octet-stream"],
                body: TestServer.bytes(count: count))
        case "auth" where request.header("Authorization") == "Basic dXNlcjpwYXNz":
            return .json(200, #"{"authenticated":true}"#)
        case "auth":
            return .unauthorized()
        default:
            return .json(404, #"{"error":"no route for \#(request.method) \#(request.path)"}"#)
        }
    }

    /// The response FlyingFox writes for `response`. An answer to `HEAD` carries the headers of the full response,
    /// its `Content-Length` included, and no body (FlyingFox would write the body).
    private func send(_ response: TestResponse, toHEAD isHEAD: Bool) async throws -> HTTPResponse {
        if response.delay > 0 {
            try await Task.sleep(nanoseconds: UInt64(response.delay * 1_000_000_000))
        }
        var headers = HTTPHeaders()
        for (name, value) in response.headers {
            headers[HTTPHeader(name)] = value
        }
        let status = HTTPStatusCode(response.status, phrase: Self.phrase(for: response.status))
        if isHEAD {
            headers[.contentLength] = String(response.body.count)
            return HTTPResponse(statusCode: status, headers: headers, body: Data())
        }
        guard let interval = response.byteInterval else {
            return HTTPResponse(statusCode: status, headers: headers, body: response.body)
        }
        let bytes = TrickledBytes(bytes: [UInt8](response.body), interval: interval, state: state)
        return HTTPResponse(
            statusCode: status, headers: headers, body: HTTPBodySequence(from: bytes, count: response.body.count))
    }

    private static func phrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}

/// A body that yields its first byte at once and every further byte after `interval` seconds; counts itself in
/// ``State/finishedTrickles`` when it reaches its end.
struct TrickledBytes: AsyncBufferedSequence {
    typealias Element = UInt8

    let bytes: [UInt8]
    let interval: TimeInterval
    let state: SharedState

    func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let sequence: TrickledBytes
        var index = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard index < sequence.bytes.count else {
                if index == sequence.bytes.count {
                    index += 1
                    sequence.state.withLock { $0.finishedTrickles += 1 }
                }
                return nil
            }
            if index > 0 {
                try await Task.sleep(nanoseconds: UInt64(sequence.interval * 1_000_000_000))
            }
            index += 1
            return [sequence.bytes[index - 1]]
        }
    }
}
