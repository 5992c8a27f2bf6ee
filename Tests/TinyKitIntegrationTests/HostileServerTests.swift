import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// `URLSessionTransport` + `Endpoint` against servers that misbehave on purpose (a raw TCP server scripts each
/// one): every case states the outcome it expects, and no case may crash or hang.
@Suite(.timeLimit(.minutes(1))) struct HostileServerTests {
    @Test func everyHostileServerGivesTheExpectedOutcome() async throws {
        let cases = HostileCase.all
        let results = await withTaskGroup(of: (HostileCase, Outcome, String).self) { group in
            for hostile in cases {
                group.addTask { await hostile.run() }
            }
            var results: [(HostileCase, Outcome, String)] = []
            for await result in group { results.append(result) }
            return results
        }
        var passed = 0
        for (hostile, outcome, description) in results.sorted(by: { $0.0.name < $1.0.name }) {
            #expect(outcome == hostile.expected, "\(hostile.name): \(description)")
            // Error messages stay short however large or strange the body was.
            #expect(description.count < 2_000, "\(hostile.name): a \(description.count) character description")
            if outcome == hostile.expected && description.count < 2_000 { passed += 1 }
        }
        print("HostileServerTests: \(results.count) cases tried, \(passed) passed")
        #expect(results.count == cases.count)
    }

    /// A slow endless stream of `1xx` (one every half second, inside the 2 s timeout) never reaches libcurl's
    /// 300 KB header limit, and each head restarts URLSession's idle timeout: on Linux the request never ends by
    /// itself. Cancelling it (or a deadline of the caller's) is the way out.
    @Test func aSlowEndlessStreamOf1xxResponsesIsLeftWhenTheCallerGivesUp() async throws {
        let server = try RawSocketServer.start([.repeat(Data(HostileCase.informational.utf8), interval: 0.5)])
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)
        let endpoint = Endpoint<Payload>(json: .get, url: server.url("/informational"), timeOutInterval: 2)

        let outcome = await Outcome.of { try await bounded(seconds: 6) { try await transport.load(endpoint) } }.0

        // Seen on Linux; not checked on Apple platforms, hence intermittent there.
        withKnownIssue(
            "FoundationNetworking restarts the idle timeout on every 1xx head",
            isIntermittent: !onFoundationNetworking
        ) {
            #expect(outcome == .transport(.timedOut))
        }
        #expect(await server.waitForClosedByClient())
    }

    /// A connection closed in the middle of the response head: FoundationNetworking stops the process ("Transfer
    /// completed, but there's no response", NativeProtocol.swift), for a bare `URLSession.data(from:)` too, so
    /// nothing above it can catch it. Run in a child process; `AsyncHTTPClientTransport` fails it as `cannotConnect`.
    @Test func aResponseHeadCutOffDoesNotStopTheProcess() async {
        let linux = onFoundationNetworking
        await withKnownIssue("FoundationNetworking traps on a head cut off by a close", isIntermittent: !linux) {
            await #expect(processExitsWith: .success) {
                let head = Data("HTTP/1.1 200 OK\r\nContent-Le".utf8)
                guard let server = try? RawSocketServer.start([.send(head)]) else { return }
                defer { server.stop() }
                let endpoint = Endpoint<Payload>(json: .get, url: server.url("/cut"), timeOutInterval: 5)
                _ = try? await URLSessionTransport(configuration: .ephemeral).load(endpoint)
            }
        }
    }

    @Test func aServerThatNeverAnswersIsLeftPromptlyWhenTheCallerIsCancelled() async throws {
        let server = try RawSocketServer.start([.pause(120)])
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)
        let endpoint = Endpoint<Payload>(json: .get, url: server.url("/never"), timeOutInterval: 120)
        let load = Task { try await transport.load(endpoint) }
        #expect(await server.waitForRequests())

        load.cancel()

        // Bounded well below the 120 s timeout: only cancellation can end the request in time.
        let outcome = try await bounded(seconds: 30) { await Outcome.of { try await load.value }.0 }
        #expect(outcome == .transport(.cancelled))
        #expect(await server.waitForClosedByClient())
    }
}

/// The JSON shape the hostile cases decode.
private struct Payload: Decodable, Sendable {
    var id: Int
    var name: String
    var tags: [String]?
}

/// What loading an endpoint came to, comparable with what a case expects.
private enum Outcome: Equatable, Sendable, CustomStringConvertible {
    case success
    /// An `HTTPTransportError` other than an unacceptable status.
    case transport(HTTPTransportError.Code)
    /// An unacceptable status, with the body kept in the error.
    case rejected(Int, body: String)
    case decodingFailed(codingPath: String)
    /// JSON was expected; the response said it is this media type.
    case unexpectedContentType(String)
    case noData
    case unexpected(String)

    var description: String {
        switch self {
        case .success: "success"
        case .transport(let code): "HTTPTransportError \(code)"
        case .rejected(let status, let body): "rejected \(status) with body \(body)"
        case .decodingFailed(let path): "decoding failed at \(path)"
        case .unexpectedContentType(let type): "unexpected Content-Type \(type)"
        case .noData: "no data"
        case .unexpected(let error): "unexpected error \(error)"
        }
    }

    /// The outcome of `operation` and the description of its error (empty on success).
    static func of(_ operation: () async throws -> some Any) async -> (Outcome, String) {
        do {
            _ = try await operation()
            return (.success, "")
        } catch let error as HTTPTransportError {
            if case .unacceptableStatus(let status) = error.code {
                return (.rejected(status, body: String(decoding: error.body ?? Data(), as: UTF8.self)), "\(error)")
            }
            return (.transport(error.code), "\(error)")
        } catch let error as EndpointError {
            switch error {
            case .decodingFailed(_, let codingPath, _, _): return (.decodingFailed(codingPath: codingPath), "\(error)")
            case .noData: return (.noData, "\(error)")
            case .unexpectedContentType(let type, _): return (.unexpectedContentType(type), "\(error)")
            default: return (.unexpected("\(error)"), "\(error)")
            }
        } catch {
            return (.unexpected("\(error)"), "\(error)")
        }
    }
}

/// One misbehaving server and the outcome expected from loading one of its endpoints.
private struct HostileCase: Sendable {
    enum Result: Sendable {
        case payload, emptyResponse, optionalPayload
    }

    var name: String
    var script: [RawSocketServer.Step]
    var expected: Outcome
    var decode: Result = .payload
    /// The request's timeout: short for the cases that test it, generous otherwise.
    var timeout: TimeInterval = 30

    func run() async -> (HostileCase, Outcome, String) {
        let server: RawSocketServer
        do {
            server = try RawSocketServer.start(script)
        } catch {
            return (self, .unexpected("the server did not start: \(error)"), "")
        }
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)
        let url = server.url("/hostile")
        let (outcome, description) = await Outcome.of { [timeout] in
            try await bounded(seconds: 90) {
                switch decode {
                case .payload:
                    _ = try await transport.load(Endpoint<Payload>(json: .get, url: url, timeOutInterval: timeout))
                case .emptyResponse:
                    _ = try await transport.load(
                        Endpoint<EmptyResponse>(json: .get, url: url, timeOutInterval: timeout))
                case .optionalPayload:
                    let value = try await transport.load(
                        Endpoint<Payload?>(json: .get, url: url, timeOutInterval: timeout))
                    if value != nil { throw UnexpectedValue() }
                }
            }
        }
        return (self, outcome, description)
    }

    /// An HTTP/1.1 response head and body, closing the connection after it.
    static func response(
        _ status: Int, contentType: String? = "application/json", headers: [String] = [], contentLength: Int? = nil,
        body: Data
    ) -> Data {
        var head = "HTTP/1.1 \(status) Hostile\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: \(contentLength ?? body.count)\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }

    static func response(_ status: Int, contentType: String? = "application/json", _ body: String) -> Data {
        response(status, contentType: contentType, body: Data(body.utf8))
    }

    static let valid = #"{"id":1,"name":"Ada","tags":["a"]}"#

    // Computed, not a `static let`: a table kept for the whole process would show as leaks under LeakSanitizer
    // (Swift keeps enum tags in spare pointer bits, so LSan does not see the references).
    static var all: [HostileCase] {
        [
            HostileCase(
                name: "headers slower than the timeout", script: [.pause(60)], expected: .transport(.timedOut),
                timeout: 1),
            HostileCase(
                name: "a body that stops past the timeout",
                script: [.send(response(200, contentLength: 40, body: Data(#"{"id":1,"#.utf8))), .pause(60)],
                expected: .transport(.timedOut), timeout: 1),
            HostileCase(
                name: "a slow body, each byte within the timeout",
                script: [
                    .send(response(200, contentLength: valid.utf8.count, body: Data())),
                    // Each pause well inside the timeout (room for a loaded 2-core machine under a sanitizer), the
                    // whole body longer than it: the timeout is per pause, not per response.
                    .trickle(Data(valid.utf8), interval: 0.2),
                ],
                expected: .success, timeout: 5),
            // A truncated body is never accepted. FoundationNetworking reports it as URLError -1 ("transfer closed
            // with 92 bytes remaining"), which the transport maps as the lost connection it is (Apple platforms'
            // -1005): it was `.other` on Linux, and not retried.
            HostileCase(
                name: "a connection closed mid-body",
                script: [.send(response(200, contentLength: 100, body: Data(#"{"id":1,"#.utf8)))],
                expected: .transport(.cannotConnect)),
            HostileCase(
                name: "a reset mid-body",
                script: [.send(response(200, contentLength: 100, body: Data(#"{"id":1,"#.utf8))), .reset],
                expected: .transport(.cannotConnect)),
            HostileCase(name: "a reset before any response", script: [.reset], expected: .transport(.cannotConnect)),
            // FoundationNetworking reports URLError -1011 ("Empty reply from server"); the transport maps it as the
            // lost connection it is.
            HostileCase(
                name: "a connection closed before any response", script: [], expected: .transport(.cannotConnect)),
            HostileCase(
                name: "a reply that is not HTTP", script: [.send(Data("SSH-2.0-OpenSSH_9.2\r\n".utf8))],
                expected: .transport(.other)),
            HostileCase(
                name: "a truncated JSON body", script: [.send(response(200, #"{"id":1,"name":"A"#))],
                expected: .decodingFailed(codingPath: "(top level)")),
            HostileCase(
                name: "JSON of the wrong shape",
                script: [.send(response(200, #"{"id":1,"name":"Ada","tags":["a",2]}"#))],
                expected: .decodingFailed(codingPath: "tags[1]")),
            HostileCase(
                name: "JSON missing a key", script: [.send(response(200, #"{"id":1}"#))],
                expected: .decodingFailed(codingPath: "name")),
            HostileCase(
                name: "valid JSON sent as text/html", script: [.send(response(200, contentType: "text/html", valid))],
                expected: .unexpectedContentType("text/html")),
            HostileCase(
                name: "an HTML error page with a 200",
                script: [.send(response(200, contentType: "text/html; charset=utf-8", "<html>maintenance</html>"))],
                expected: .unexpectedContentType("text/html; charset=utf-8")),
            HostileCase(
                name: "XML where JSON was expected",
                script: [.send(response(200, contentType: "application/xml", "<user id=\"1\"/>"))],
                expected: .unexpectedContentType("application/xml")),
            HostileCase(
                name: "valid JSON without a Content-Type", script: [.send(response(200, contentType: nil, valid))],
                expected: .success),
            HostileCase(name: "an empty 200 for a value", script: [.send(response(200, ""))], expected: .noData),
            HostileCase(
                name: "an empty 200 for EmptyResponse", script: [.send(response(200, ""))], expected: .success,
                decode: .emptyResponse),
            HostileCase(
                name: "an empty 200 for an optional", script: [.send(response(200, ""))], expected: .success,
                decode: .optionalPayload),
            HostileCase(name: "a 204 for a value", script: [.send(response(204, ""))], expected: .noData),
            HostileCase(
                name: "a 204 for EmptyResponse", script: [.send(response(204, ""))], expected: .success,
                decode: .emptyResponse),
            HostileCase(
                name: "a redirect loop",
                script: [.send(response(302, contentType: nil, headers: ["Location: /hostile"], body: Data()))],
                expected: .transport(.other)),
            HostileCase(
                name: "invalid UTF-8 in a JSON string",
                script: [
                    .send(
                        response(200, body: Data(#"{"id":1,"name":""#.utf8) + Data([0xff, 0xfe]) + Data(#""}"#.utf8)))
                ],
                expected: .decodingFailed(codingPath: "(top level)")),
            HostileCase(
                name: "JSON nested 100,000 deep",
                script: [
                    .send(
                        response(
                            200,
                            body: Data(String(repeating: "[", count: 100_000).utf8)
                                + Data(String(repeating: "]", count: 100_000).utf8)))
                ],
                expected: .decodingFailed(codingPath: "(top level)")),
            // Over maximumResponseBodySize (10 MiB): refused at its head, never buffered.
            HostileCase(
                name: "a 32 MB body where a small object was expected",
                script: [.send(response(200, body: Data(repeating: UInt8(ascii: "x"), count: 32 << 20)))],
                expected: .transport(.other)),
            // Never a final response: FoundationNetworking (libcurl) gives up after 300 KB of response headers,
            // 1xx heads included ("Too large response headers", URLError -1).
            HostileCase(
                name: "an endless stream of 1xx responses",
                script: [.repeat(Data(String(repeating: informational, count: 100).utf8), interval: 0.01)],
                expected: .transport(.other), timeout: 5),
            HostileCase(
                name: "a body that claims gzip but is not",
                script: [.send(response(200, headers: ["Content-Encoding: gzip"], body: Data(valid.utf8)))],
                expected: .transport(.other)),
        ]
            + errorStatuses.map { status in
                let body = #"{"error":"status \#(status)","detail":"kept"}"#
                return HostileCase(
                    name: "a \(status) with a JSON error body", script: [.send(response(status, body))],
                    expected: .rejected(status, body: body))
            }
    }

    /// Two informational responses, `100 Continue` and `103 Early Hints`, as a server that never finishes sends them.
    static let informational =
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"

    /// Every registered 4xx and 5xx status.
    static let errorStatuses =
        Array(400...418) + [421, 422, 423, 424, 425, 426, 428, 429, 431, 451] + Array(500...508) + [510, 511]
}

private struct UnexpectedValue: Error {}
