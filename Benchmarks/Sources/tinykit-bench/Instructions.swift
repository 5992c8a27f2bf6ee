import Foundation
import TinyKit

/// A fixed number of sequential requests with one client, for `valgrind --tool=callgrind` (scripts/bench.sh runs it
/// with two counts and divides the difference, so start-up and warm-up cancel out).
func countedRequests(_ options: Options) async {
    let requests = options.int("requests", default: 200)
    if let toStore = ["store": true, "observable": false][options.string("client")] {
        return await countedSends(requests, toStore: toStore)
    }
    let url = options.url("url")
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
    case let other:
        fail("unknown client \(other): raw, endpoint, session, client, stateful, ahc, ahc-transport, store, observable")
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

/// `count` calls on the main actor of `Store.send(.increment)` with the trivial reducer and effect `.none`
/// (`client=store`), or of the same mutation through a method of a plain `@Observable` class (`client=observable`,
/// the floor issue 16's `≤ 2×` is measured against): their instruction counts, steadier than the nanoseconds of the
/// in-process rows, whose baseline moves between 62 and 142 ns from run to run on this machine.
func countedSends(_ count: Int, toStore: Bool) async {
    await MainActor.run {
        let (store, counter) = (Store<TrivialFeature>(), PlainObservableCounter())
        if toStore {
            for _ in 0..<count { store.send(.increment) }
        } else {
            for _ in 0..<count { counter.increment() }
        }
        guard store.state.count + counter.count == count else { fail("counted \(store.state.count + counter.count)") }
    }
}
