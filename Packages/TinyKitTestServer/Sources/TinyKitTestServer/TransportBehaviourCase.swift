import Foundation
import Testing
import TinyHTTPTransport

/// One check of the transport behaviour suite (``TransportBehaviour``): it sends requests through the transport it
/// is given to a server of its own (a ``TestServer`` or a ``RawSocketServer``) and `#expect`s the outcome.
///
/// Run every case as one parameterised test; the expectations are recorded against that test:
///
/// ```swift
/// @Test(arguments: TransportBehaviour.cases)
/// func behaviour(_ check: TransportBehaviourCase) async throws {
///     try await check.run(URLSessionTransport(configuration: .ephemeral))
/// }
/// ```
public struct TransportBehaviourCase: Sendable, Identifiable, CustomTestStringConvertible {
    /// What the case checks, as a sentence, for example `"GET round trip carries query, headers and body"`.
    public let name: String
    /// Seconds after which ``run(_:)`` gives up on a transport that hangs.
    public let timeLimit: TimeInterval
    private let body: @Sendable (any HTTPTransport) async throws -> Void

    /// Creates a case.
    ///
    /// - Parameters:
    ///   - name: What the case checks, as a sentence; it names the test case in test output.
    ///   - timeLimit: Seconds after which ``run(_:)`` stops waiting and fails. A bound against hangs, not a timing
    ///     assertion: keep it well above what the case takes on a loaded machine.
    ///   - body: The check: sends through the transport it is given and `#expect`s the outcome.
    public init(
        _ name: String, timeLimit: TimeInterval = 90,
        body: @escaping @Sendable (any HTTPTransport) async throws -> Void
    ) {
        self.name = name
        self.timeLimit = timeLimit
        self.body = body
    }

    /// Runs the check against `transport`.
    ///
    /// - Parameter transport: The transport under test; the case sends every request through it.
    /// - Throws: What the check throws (a failed `#require`, an unexpected error of the transport), or a timeout
    ///   error when the check did not finish within ``timeLimit`` seconds. A check that ignores cancellation is then
    ///   left running rather than waited for.
    public func run(_ transport: any HTTPTransport) async throws {
        try await bounded(seconds: timeLimit) { [body] in try await body(transport) }
    }

    /// The name, which identifies the case among the suite's arguments.
    public var id: String { name }

    /// The name, shown for the case in test output.
    public var testDescription: String { name }
}

extension TransportBehaviourCase {
    /// A case whose `body` runs with a ``TestServer`` of its own, stopped when the case ends.
    static func onServer(
        _ name: String, _ body: @escaping @Sendable (any HTTPTransport, TestServer) async throws -> Void
    ) -> TransportBehaviourCase {
        TransportBehaviourCase(name) { transport in
            let server = try await TestServer.start()
            defer { server.stop() }
            try await body(transport, server)
        }
    }

    /// A case whose `body` runs with a ``RawSocketServer`` of its own that answers every connection with `script`,
    /// stopped when the case ends.
    static func onRawServer(
        _ name: String, script: [RawSocketServer.Step],
        _ body: @escaping @Sendable (any HTTPTransport, RawSocketServer) async throws -> Void
    ) -> TransportBehaviourCase {
        TransportBehaviourCase(name) { transport in
            let server = try RawSocketServer.start(script)
            defer { server.stop() }
            try await body(transport, server)
        }
    }
}
