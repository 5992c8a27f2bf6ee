import Foundation
import TinyKit

/// A fixed number of sequential requests with one client, for `valgrind --tool=callgrind` (scripts/bench.sh runs it
/// with two counts and divides the difference, so start-up and warm-up cancel out).
func countedRequests(_ options: Options) async {
    let url = options.url("url")
    let requests = options.int("requests", default: 200)
    let configuration = benchmarkConfiguration()
    let client: Client
    switch options.string("client") {
    case "raw": client = .raw(url, configuration: configuration)
    case "endpoint": client = .endpoint(url, transport: URLSessionTransport(configuration: configuration))
    case "session": client = .sessionLoad(url, configuration: configuration)
    case "client": client = .apiClient(url, transport: URLSessionTransport(configuration: configuration))
    case "stateful": client = .stateful(url, transport: URLSessionTransport(configuration: configuration))
    case "ahc": client = .rawAsyncHTTPClient(url)
    case "ahc-transport": client = .asyncHTTPClientTransport(url)
    case let other: fail("unknown client \(other): raw, endpoint, session, client, stateful, ahc or ahc-transport")
    }
    let load = client.makeLoad()
    for _ in 0..<requests {
        do {
            blackHole(try await load())
        } catch {
            fail("request failed: \(error)")
        }
    }
    do { try await client.close() } catch { fail("closing the client failed: \(error)") }
}
