import Foundation

// tinykit-bench MODE key=value…; scripts/bench.sh runs every mode. Results are Markdown table rows.
//   http small=URL large=URL [status=URL (stub_status) rounds=5 small-requests=500 large-requests=8 time-limit=10]
//   memory [mock-requests=50000 fanout-calls=2000000 callers=1000 sends=100000 round-trips=10000 repetitions=5
//          time-limit=10]
//   instructions client=raw|endpoint|session|client|stateful|ahc|ahc-transport url=URL [requests=200]   (for callgrind)
//   instructions client=own-raw|own-endpoint|own-client|own-stateful url=URL [requests=200]   (a transport answering
//                at once, no server: TinyKit's own instructions, for callgrind)
//   instructions client=store|observable [requests=200]   (sends, no server)

let arguments = Array(CommandLine.arguments.dropFirst())
let options = Options(Array(arguments.dropFirst()))

switch arguments.first {
case "instructions":
    // Synchronous: valgrind 3.19 crashes on Swift programs with an async top level, and on `dispatchMain()`. The main
    // thread runs its run loop, which serves the main queue (StatefulEndpoint lives on the main actor), waiting in
    // the kernel between blocks rather than polling.
    Task.detached {
        await countedRequests(options)
        exit(0)
    }
    while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
case "http", "memory":
    let mode = arguments.first
    Task { @MainActor in
        do {
            if mode == "http" {
                try await httpBenchmarks(options)
            } else {
                try await mockBenchmarks(options)
                try await statefulBenchmarks(options)
                await storeBenchmarks(options)
            }
        } catch {
            fail("\(error)")
        }
        exit(0)
    }
    dispatchMain()
default:
    fail("usage: tinykit-bench http|memory|instructions key=value… (see Sources/tinykit-bench/main.swift)")
}
