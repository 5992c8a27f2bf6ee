import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

#if canImport(Glibc)
    import Glibc

    /// A TCP server on `127.0.0.1` (a free port) that reads each request head, records it, answers it with what
    /// `answer` returns for it (the whole reply, head and body) and closes the connection.
    final class ScriptedHTTPServer: Sendable {
        let port: UInt16
        private let listener: Int32
        private let recorded = Locked([String]())

        /// The request lines received so far (`GET /path HTTP/1.1`).
        var requestLines: [String] { heads.map { $0.components(separatedBy: "\r\n")[0] } }

        /// The request heads received so far.
        var heads: [String] { recorded.withLock { $0 } }

        convenience init(reply: String) throws { try self.init { _ in reply } }

        init(answer: @escaping @Sendable (_ head: String) -> String) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(listener, address, length) == 0 && listen(listener, 8) == 0
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
                    let head = Self.readHead(connection)
                    recorded.withLock { $0.append(head) }
                    _ = answer(head).utf8CString.withUnsafeBufferPointer {
                        send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
                    }
                    close(connection)
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

        /// Reads the request head, up to its blank line (the requests here have no body).
        private static func readHead(_ connection: Int32) -> String {
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                head += buffer[..<count]
            }
            return String(decoding: head, as: UTF8.self)
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
