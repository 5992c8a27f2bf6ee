import Foundation
import TinyKit

/// Raw URLSession against each TinyKit client, and raw AsyncHTTPClient against `AsyncHTTPClientTransport`, on the
/// small and the large payload, one and eight requests in flight. Rounds interleave the clients (the order rotates
/// every round) so that drift hits all of them; each figure in the ratio column is the median over rounds of the
/// client's throughput divided by a raw client's in the same round: the raw client of its own library (the overhead)
/// and, for AsyncHTTPClient, raw URLSession too (what switching gains). With `status=` (nginx's stub_status page), the
/// note counts the connections each client opened during the rounds.
func httpBenchmarks(_ options: Options) async throws {
    let rounds = options.int("rounds", default: 5)
    let timeLimit = options.seconds("time-limit", default: 10)
    let status = options.optionalURL("status").map(AcceptedConnections.init)
    let payloads = [
        ("small", options.url("small"), options.int("small-requests", default: 500)),
        ("large", options.url("large"), options.int("large-requests", default: 8)),
    ]
    for (payload, url, requests) in payloads {
        let configuration = benchmarkConfiguration()
        let transport = URLSessionTransport(configuration: configuration)
        let clients: [Client] = [
            .raw(url, configuration: configuration), .endpoint(url, transport: transport),
            .sessionLoad(url, configuration: configuration),
            .apiClient(url, transport: transport), .stateful(url, transport: transport),
            .revalidating(url, transport: transport),
            .rawAsyncHTTPClient(url), .asyncHTTPClientTransport(url),
        ]
        for concurrency in [1, 8] {
            let workers = clients.map { client in (0..<concurrency).map { _ in client.makeLoad() } }
            try await checkSameUsers(workers.map { $0[0] })
            var perSecond = clients.map { _ in [Double]() }
            var opened = clients.map { _ in 0 }
            for round in 0..<rounds {
                for offset in clients.indices {
                    let index = (round + offset) % clients.count
                    let bodies = workers[index].map { load in { @Sendable in blackHole(try await load()) } }
                    let accepted = try await status?.count()
                    let run = try await bounded(count: requests, bodies: bodies, timeLimit: timeLimit)
                    perSecond[index].append(run.perSecond)
                    if let accepted, let now = try await status?.count() { opened[index] += now - accepted }
                }
            }
            for (index, client) in clients.enumerated() {
                row(
                    "HTTP \(payload), \(concurrency) in flight", client.name,
                    "\(format(median(perSecond[index]), payload == "small" ? 0 : 1)) req/s",
                    ratio: ratios(of: index, in: clients, perSecond: perSecond),
                    note: "\(rounds) rounds × ≤\(requests) requests"
                        + (status == nil ? "" : "; \(opened[index]) connections opened"))
            }
        }
        for client in clients { try await client.close() }
    }
}

/// The ratio column of a client: "1 (baseline)" for raw URLSession; otherwise the median ratio per round (smallest and
/// largest in brackets) to the raw client of its library (the overhead) and, for an AsyncHTTPClient client, to raw
/// URLSession (the gain), then named after the baseline.
private func ratios(of index: Int, in clients: [Client], perSecond: [[Double]]) -> String {
    let client = clients[index]
    func raw(_ library: Client.Library) -> Int? { clients.firstIndex { $0.isRaw && $0.library == library } }
    let baselines = [
        client.isRaw ? nil : raw(client.library), client.library == .urlSession ? nil : raw(.urlSession),
    ].compactMap { $0 }
    guard !baselines.isEmpty else { return "1 (baseline)" }
    return baselines.map { baseline in
        let ratio = zip(perSecond[index], perSecond[baseline]).map(/)
        let range = "\(format(ratio.min() ?? .nan, 3))–\(format(ratio.max() ?? .nan, 3))"
        let named =
            client.library == .urlSession ? "" : " vs \(clients[baseline].name.components(separatedBy: " + ")[0])"
        return "\(format(median(ratio), 3)) (\(range))\(named)"
    }.joined(separator: "; ")
}

/// The number of connections nginx has accepted, from its stub_status page ("Active connections: 1\nserver accepts
/// handled requests\n 12 12 40\n…"), read through a session of its own whose one kept-alive connection is opened by
/// the first read, so the difference of two reads is what the clients opened in between.
struct AcceptedConnections {
    let url: URL
    let session = URLSession(configuration: benchmarkConfiguration())

    func count() async throws -> Int {
        let (data, _) = try await session.data(from: url)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard lines.count > 2, let accepts = lines[2].split(separator: " ").first.flatMap({ Int($0) }) else {
            fail("not a stub_status page: \(url)")
        }
        return accepts
    }
}

/// Loads once with each client (a warm-up) and checks they all decoded the same users.
private func checkSameUsers(_ loads: [@Sendable () async throws -> [User]]) async throws {
    var first: [User]?
    for load in loads {
        let users = try await load()
        guard !users.isEmpty, first == nil || first == users else { fail("the clients decoded different users") }
        first = users
    }
}
