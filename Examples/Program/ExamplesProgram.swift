import Foundation
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitDemoServer
import TinyKitExampleCombinations

/// The `tinykit-examples` program: parses the command line, picks the server or mocks, runs every example and
/// renders the table. `main` prints; ``run(arguments:)`` returns what it would print, for tests.
public enum ExamplesProgram {
    /// What the program printed and its exit status.
    public struct Output: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        /// The table rows (empty when the program stopped before running examples).
        public var rows: [ExampleRow]
    }

    /// Exit status for a command line that cannot run.
    public static let usageStatus: Int32 = 64

    /// How long one example may take before it counts as failed.
    public static let exampleTimeoutSeconds: UInt64 = 15

    /// Runs the program and prints its output; returns the exit status.
    public static func main(arguments: [String]) async -> Int32 {
        if let options = try? ExamplesOptions.parse(arguments), options.serve, !options.showHelp {
            return await serve(port: options.port ?? 0)
        }
        let output = await run(arguments: arguments)
        if !output.standardOutput.isEmpty { print(output.standardOutput) }
        if !output.standardError.isEmpty {
            FileHandle.standardError.write(Data((output.standardError + "\n").utf8))
        }
        return output.status
    }

    /// Runs the program and returns what it would print.
    public static func run(arguments: [String]) async -> Output {
        let options: ExamplesOptions
        do {
            options = try ExamplesOptions.parse(arguments)
        } catch {
            return Output(
                status: usageStatus, standardOutput: "", standardError: "error: \(error) (see --help)", rows: [])
        }
        if options.showHelp {
            return Output(status: 0, standardOutput: ExamplesOptions.usage, standardError: "", rows: [])
        }
        let transport: any HTTPTransport
        do {
            transport = try options.transport.make()
        } catch {
            return Output(status: usageStatus, standardOutput: "", standardError: "error: \(error)", rows: [])
        }
        let examples = ExampleCatalog.all.filter { example in
            options.only.map { example.combination.description.localizedCaseInsensitiveContains($0) } ?? true
        }
        guard !examples.isEmpty else {
            return Output(
                status: usageStatus, standardOutput: "",
                standardError: "error: no combination matches --only '\(options.only ?? "")'", rows: [])
        }

        let context: ExampleContext
        let ranOn: String
        var server: DemoServer?
        switch options.target {
        case .demoServer:
            do {
                let started = try await DemoServer.start()
                server = started
                context = ExampleContext(baseURL: started.baseURL, transport: transport)
                let address = started.baseURL.absoluteString
                ranOn = "on \(options.transport.typeName) against the demo server at \(address)"
            } catch {
                return Output(
                    status: 1, standardOutput: "", standardError: "error: could not start the demo server: \(error)",
                    rows: [])
            }
        case .baseURL(let url):
            if let problem = await unreachable(url, through: transport) {
                return Output(status: 1, standardOutput: "", standardError: "error: \(problem)", rows: [])
            }
            context = ExampleContext(baseURL: url, transport: transport)
            ranOn = "on \(options.transport.typeName) against \(url.absoluteString)"
        case .mocks:
            do {
                context = ExampleContext(
                    baseURL: ExampleMocks.baseURL, transport: try ExampleMocks.transport())
            } catch {
                return Output(
                    status: 1, standardOutput: "", standardError: "error: cannot read the mocks: \(error)", rows: [])
            }
            ranOn = "against the example mocks (TinyMocks)"
        }

        var rows: [ExampleRow] = []
        for example in examples {
            rows.append(await runOne(example, context: context))
        }
        await server?.stop()

        let failures = rows.filter { !$0.succeeded }.count
        let summary = "\(rows.count - failures) of \(rows.count) combinations succeeded \(ranOn)."
        return Output(
            status: failures == 0 ? 0 : 1, standardOutput: ExamplesTable.render(rows) + "\n\n" + summary,
            standardError: "", rows: rows)
    }

    /// Serves the demo API until the process is stopped.
    static func serve(port: UInt16) async -> Int32 {
        let server: DemoServer
        do {
            server = try await DemoServer.start(port: port)
        } catch {
            FileHandle.standardError.write(Data("error: could not start the demo server: \(error)\n".utf8))
            return 1
        }
        let line =
            "Demo server listening at \(server.baseURL.absoluteString) (/users, /todos, /posts). Ctrl-C stops it.\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 3_600 * 1_000_000_000)
        }
        await server.stop()
        return 0
    }

    /// Runs one example with a time limit and turns its report or error into a row.
    static func runOne(_ example: any Example.Type, context: ExampleContext) async -> ExampleRow {
        let start = DispatchTime.now().uptimeNanoseconds
        // Whichever comes first, without waiting for the other: an example that ignores its cancellation (a
        // completion handler's task) would otherwise hold the row until it ends by itself.
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<ExampleReport, any Error>, Never>) in
            let pending = Locked(true)
            let finish = { @Sendable (outcome: Result<ExampleReport, any Error>) in
                let first = pending.withLock { pending in
                    defer { pending = false }
                    return pending
                }
                if first { continuation.resume(returning: outcome) }
            }
            let work = Task { await Result { try await example.run(context) } }
            let timer = Task {
                try? await Task.sleep(nanoseconds: exampleTimeoutSeconds * 1_000_000_000)
                work.cancel()
                finish(.failure(ExampleTimeout()))
            }
            Task {
                finish(await work.value)
                timer.cancel()
            }
        }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        let name = example.combination.description
        switch outcome {
        case .success(let report):
            return ExampleRow(
                combination: name, did: report.did, result: report.result, succeeded: true, milliseconds: milliseconds)
        case .failure(let error):
            return ExampleRow(
                combination: name, did: "", result: oneLine(error), succeeded: false, milliseconds: milliseconds)
        }
    }

    /// Why `baseURL` cannot serve the examples, or `nil` when `GET <baseURL>/users` answers with a success status
    /// through `transport`.
    static func unreachable(_ baseURL: URL, through transport: any HTTPTransport) async -> String? {
        var request = URLRequest(url: baseURL.appendingPathComponent("users"))
        request.timeoutInterval = 10
        do {
            let (_, response) = try await transport.send(request)
            guard (200..<300).contains(response.statusCode) else {
                return "\(baseURL.absoluteString) answered GET /users with status \(response.statusCode)"
            }
            return nil
        } catch let error as HTTPTransportError {
            return "cannot reach \(baseURL.absoluteString): \(error.code)"
        } catch {
            return "cannot reach \(baseURL.absoluteString): \(oneLine(error))"
        }
    }

    static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// An example that took longer than ``ExamplesProgram/exampleTimeoutSeconds``.
struct ExampleTimeout: Error, CustomStringConvertible {
    var description: String { "timed out after \(ExamplesProgram.exampleTimeoutSeconds) s" }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
