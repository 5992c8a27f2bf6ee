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
    let answering = AnsweringTransport(url: url)
    let client: Client
    switch options.string("client") {
    case "own-raw": client = .answered(url, transport: answering)
    case "own-endpoint": client = .endpoint(url, transport: answering)
    case "own-client": client = .apiClient(url, transport: answering)
    case "own-stateful": client = .stateful(url, transport: answering)
    case "raw": client = .raw(url, configuration: configuration)
    case "endpoint": client = .endpoint(url, transport: URLSessionTransport(configuration: configuration))
    case "session": client = .sessionLoad(url, configuration: configuration)
    case "client": client = .apiClient(url, transport: URLSessionTransport(configuration: configuration))
    case "stateful": client = .stateful(url, transport: URLSessionTransport(configuration: configuration))
    case "ahc": client = .rawAsyncHTTPClient(url)
    case "ahc-transport": client = .asyncHTTPClientTransport(url)
    case let other:
        fail(
            "unknown client \(other): raw, endpoint, session, client, stateful, ahc, ahc-transport, own-raw, "
                + "own-endpoint, own-client, own-stateful, store, observable")
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

/// A transport that answers every request at once with the small payload's bytes (`client=own-…`, no server). What a
/// TinyKit load costs over `own-raw` (the same answer taken and decoded by hand) is TinyKit's own work, counted
/// without the network stack, whose whole-process counts move by about ±0.5 % from run to run: these do not move.
struct AnsweringTransport: HTTPTransport {
    let body: Data
    let response: HTTPURLResponse

    init(url: URL) {
        do { body = try JSONEncoder().encode(User.list(count: 11)) } catch { fail("cannot encode the users: \(error)") }
        let fields = ["Content-Type": "application/json", "Content-Length": "\(body.count)"]
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)
        else { fail("cannot make the response for \(url)") }
        self.response = response
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { (body, response) }
}

extension Client {
    /// The in-process baseline: `AnsweringTransport.send`, the status check and `JSONDecoder`, as the raw client does
    /// with `URLSession.data(for:)`.
    static func answered(_ url: URL, transport: AnsweringTransport) -> Client {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (decoder, accepting) = (JSONDecoder(), request)
        return Client(name: "answered at once + JSONDecoder", isRaw: true) {
            {
                let (data, response) = try await transport.send(accepting)
                guard (200..<300).contains(response.statusCode) else { throw URLError(.badServerResponse) }
                return try decoder.decode([User].self, from: data)
            }
        }
    }
}
