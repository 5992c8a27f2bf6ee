import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

#if canImport(Glibc)
    import Glibc

    /// A TCP server on `127.0.0.1` (a free port), a thread per connection: it reads each request head, records it,
    /// and answers it with what `answer` returns for it (the whole reply, head and body) and closes the connection,
    /// or, where `answer` returns `nil`, holds the connection unanswered until the client closes it (a cancelled or
    /// timed-out request). A held connection does not keep the others waiting.
    final class ScriptedHTTPServer: Sendable {
        /// The request heads received so far, and who waits for a request for which path.
        private typealias Arrivals = (heads: [String], waiting: [(path: String, CheckedContinuation<Void, Never>)])

        let port: UInt16
        private let listener: Int32
        private let recorded = Locked<Arrivals>(([], []))

        /// The request lines received so far (`GET /path HTTP/1.1`).
        var requestLines: [String] { heads.map { $0.components(separatedBy: "\r\n")[0] } }

        /// The request heads received so far, each with its body.
        var heads: [String] { recorded.withLock { $0.heads } }

        /// The paths of the requests received so far.
        var paths: [String] { heads.map(Self.path(of:)) }

        convenience init(reply: String) throws { try self.init { _ in reply } }

        /// A server answering each request head with what `answer` returns for it; `nil` holds the connection open,
        /// unanswered, until the client closes it.
        init(answer: @escaping @Sendable (_ head: String) -> String?) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(listener, address, length) == 0 && listen(listener, 16) == 0
                        && getsockname(listener, address, &length) == 0
                }
            }
            guard bound else {
                close(listener)
                throw HTTPTransportError(.other, message: "the test server could not listen")
            }
            self.listener = listener
            port = UInt16(bigEndian: address.sin_port)
            let recorded = recorded
            Thread.detachNewThread {
                while case let connection = accept(listener, nil, nil), connection >= 0 {
                    Thread.detachNewThread { Self.serve(connection, recorded: recorded, answer: answer) }
                }
                // Closed only here, once `accept` fails: closed by `deinit`, the descriptor could be reused by the
                // listener of the next server while this loop still accepts on it, answering that server's requests.
                close(listener)
            }
        }

        /// Stops listening; the accepting thread then closes the socket.
        deinit { shutdown(listener, Int32(SHUT_RDWR)) }

        /// A URL of this server.
        func url(_ path: String) throws -> URL { try #require(URL(string: "http://127.0.0.1:\(port)\(path)")) }

        /// Returns once a request for `path` has arrived.
        func waitForArrival(of path: String) async {
            await withCheckedContinuation { continuation in
                let arrived = recorded.withLock { state in
                    if state.heads.contains(where: { Self.path(of: $0) == path }) { return true }
                    state.waiting.append((path, continuation))
                    return false
                }
                if arrived { continuation.resume() }
            }
        }

        /// Reads the request head on `connection`, records it (resuming whoever waits for its path), then answers it
        /// or holds the connection until the client closes it, and closes it.
        private static func serve(
            _ connection: Int32,
            recorded: Locked<Arrivals>,
            answer: @Sendable (_ head: String) -> String?
        ) {
            let head = readHead(connection)
            let arrived = path(of: head)
            let resumed = recorded.withLock { state in
                state.heads.append(head)
                let ready = state.waiting.filter { $0.path == arrived }.map(\.1)
                state.waiting.removeAll { $0.path == arrived }
                return ready
            }
            for continuation in resumed { continuation.resume() }
            if let reply = answer(head) {
                _ = reply.utf8CString.withUnsafeBufferPointer {
                    send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
                }
            } else {
                var buffer = [UInt8](repeating: 0, count: 1024)
                while recv(connection, &buffer, buffer.count, 0) > 0 {}
            }
            close(connection)
        }

        /// Reads the request head, up to its blank line, and the body its `Content-Length` announces (a head read up
        /// to a blank line at the end of what came was never answered when a `POST`'s body came with it).
        private static func readHead(_ connection: Int32) -> String {
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !isWhole(request) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                request += buffer[..<count]
            }
            return String(decoding: request, as: UTF8.self)
        }

        /// Whether `request` holds its head and the body its `Content-Length` announces.
        private static func isWhole(_ request: [UInt8]) -> Bool {
            guard let end = request.firstRange(of: Array("\r\n\r\n".utf8)) else { return false }
            let length = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
                .components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
            return request.count - end.upperBound >= length ?? 0
        }

        /// A response with `status`, `headers` and `body`, closing the connection.
        static func response(_ status: Int, headers: [String] = [], body: String = "") -> String {
            let lines = headers + ["Content-Length: \(body.utf8.count)", "Connection: close"]
            return "HTTP/1.1 \(status) Scripted\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n" + body
        }

        /// The path of a request head's request line.
        static func path(of head: String) -> String {
            head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        }
    }
#endif
