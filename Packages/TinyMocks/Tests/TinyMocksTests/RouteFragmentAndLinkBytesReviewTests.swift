import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyMocks

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Review of the mocks hunt's fixes (commit b183d42): a route's fragment, and the link check "compared as bytes".
@Suite(.timeLimit(.minutes(1))) struct RouteFragmentAndLinkBytesReviewTests {
    /// The text of the body `mock` answers `url` with, or `nil` when it fails.
    func answer(_ mock: MockTransport, _ url: String) async throws -> String? {
        guard let (body, _) = try? await mock.send(try request(.get, url)) else { return nil }
        return String(decoding: body, as: UTF8.self)
    }

    /// MockTransport.swift `register`: the path stopped at `?` or `#`, but the query was everything after the first
    /// `?`, also when that `?` is inside the fragment (a fragment may hold `?`, RFC 3986 §3.5). The route
    /// `/docs#intro?lang=en` then required `lang=en`, which no request to `/docs` has.
    @Test func aQuestionMarkInARoutesFragmentIsNoQuery() async throws {
        let mock = MockTransport()
        mock.register(.get, "/docs#intro?lang=en", .text("docs"))

        let docs = try await answer(mock, "https://h/docs")
        #expect(docs == "docs")
        #expect(mock.routes == ["GET /docs"])
    }

    /// Makes a directory whose name is `bytes` (not necessarily UTF-8) inside `parent`.
    func makeDirectory(_ parent: String, _ bytes: [UInt8]) throws {
        let path = Array(parent.utf8) + [UInt8(ascii: "/")] + bytes + [0]
        let result = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
        }
        try #require(result == 0)
    }

    /// MockFiles.swift `url(ofFileNamed:path:)`: the paths were compared as their UTF-8 bytes, but only after
    /// `realPath` made them `String`s with `String(cString:)`, which repairs bytes that are not UTF-8 into U+FFFD. Two
    /// sibling directories `m\xFF` and `m\xFE` both read `m\u{FFFD}`: a mock directory reached through a link to the
    /// first, whose mock file links into the second, serves a file outside the mock directory.
    @Test func aLinkIntoASiblingWhoseNameIsNotUTF8IsRefused() async throws {
        let files = FileManager.default
        let root = files.temporaryDirectory.appendingPathComponent("tinymocks-bytes-\(UUID())").path
        defer { try? files.removeItem(atPath: root) }
        try files.createDirectory(atPath: root, withIntermediateDirectories: true)
        try makeDirectory(root, [UInt8(ascii: "m"), 0xFF])
        try makeDirectory(root, [UInt8(ascii: "m"), 0xFE])
        // `mocks` -> `m\xFF`; `mocks/mock_get_users.json` -> `../m\xFE/secret.json`.
        let linked = [
            ([UInt8(ascii: "m"), 0xFF], "/mocks"),
            (Array("../m".utf8) + [0xFE] + Array("/secret.json".utf8), "/mocks/mock_get_users.json"),
        ]
        for (target, link) in linked {
            let made = (target + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { symlink($0.baseAddress!, root + link) }
            }
            try #require(made == 0)
        }
        let secret = Array(root.utf8) + Array("/m".utf8) + [0xFE] + Array("/secret.json".utf8) + [0]
        let written = secret.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { path -> Bool in
                guard let file = fopen(path.baseAddress!, "w") else { return false }
                defer { fclose(file) }
                return fputs(#""SECRET""#, file) >= 0
            }
        }
        try #require(written)
        let mock = MockTransport(files: MockFiles(directory: URL(fileURLWithPath: root + "/mocks")))

        let served = try await answer(mock, "https://h/users")
        #expect(served == nil)
    }
}
