import Foundation
import TinyKit

/// Raw URLSession against each TinyKit client, on the small and the large payload, one and eight requests in
/// flight. Rounds interleave the clients (the order rotates every round) so that drift hits all of them; each
/// TinyKit figure is the median over rounds of its throughput divided by the raw client's in the same round.
func httpBenchmarks(_ options: Options) async throws {
    let rounds = options.int("rounds", default: 5)
    let timeLimit = options.seconds("time-limit", default: 10)
    let payloads = [
        ("small", options.url("small"), options.int("small-requests", default: 500)),
        ("large", options.url("large"), options.int("large-requests", default: 8)),
    ]
    for (payload, url, requests) in payloads {
        let configuration = benchmarkConfiguration()
        let transport = URLSessionTransport(configuration: configuration)
        let clients: [Client] = [
            .raw(url, configuration: configuration), .endpoint(url, transport: transport),
            .apiClient(url, transport: transport), .stateful(url, transport: transport),
        ]
        for concurrency in [1, 8] {
            let workers = clients.map { client in (0..<concurrency).map { _ in client.makeLoad() } }
            try await checkSameUsers(workers.map { $0[0] })
            var perSecond = clients.map { _ in [Double]() }
            var ratios = clients.map { _ in [Double]() }
            for round in 0..<rounds {
                var roundPerSecond = [Double](repeating: 0, count: clients.count)
                for offset in clients.indices {
                    let index = (round + offset) % clients.count
                    let bodies = workers[index].map { load in { @Sendable in blackHole(try await load()) } }
                    let run = try await bounded(count: requests, bodies: bodies, timeLimit: timeLimit)
                    roundPerSecond[index] = run.perSecond
                }
                for index in clients.indices {
                    perSecond[index].append(roundPerSecond[index])
                    ratios[index].append(roundPerSecond[index] / roundPerSecond[0])
                }
            }
            for index in clients.indices {
                let ratio = ratios[index]
                row(
                    "HTTP \(payload), \(concurrency) in flight", clients[index].name,
                    "\(format(median(perSecond[index]), payload == "small" ? 0 : 1)) req/s",
                    ratio: index == 0
                        ? "1 (baseline)"
                        : "\(format(median(ratio), 3)) (\(format(ratio.min() ?? .nan, 3))–\(format(ratio.max() ?? .nan, 3)))",
                    note: "\(rounds) rounds × ≤\(requests) requests")
            }
        }
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
