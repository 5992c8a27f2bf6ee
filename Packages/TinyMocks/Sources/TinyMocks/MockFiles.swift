import Foundation
import TinyHTTPTransport

/// A directory of mock JSON files, named after the requests they answer.
///
/// | request | file |
/// |---|---|
/// | `GET /users` | `mock_get_users.json` |
/// | `POST /users` | `mock_post_users.json` |
/// | `GET /users/1` | `mock_get_users_1.json` |
/// | `GET /` (empty path) | `mock_get_root.json` |
/// | `GET /users?page=2` | `mock_get_users.json` (the query is not part of the name) |
/// | `GET /projects/a%2Fb` | `mock_get_projects_a%2Fb.json` |
///
/// The rules: `mock_`, the method in lower case, `_`, the path's segments (percent-decoded) joined by `_`, `.json`.
/// Empty segments (`//`, a trailing `/`) are skipped. Inside a segment, `/`, `\`, `%`, the control characters (NUL
/// to U+001F, U+007F to U+009F) and the line separators U+2028 and U+2029 are written percent-encoded as UTF-8 (`%2F`,
/// `%5C`, `%25`, `%00`, `%C2%85`, `%E2%80%A8`), so a file name can never contain a path separator or break a message's
/// line; other text, unicode included, is kept (in Unicode normalization form C). A `.`
/// or `..` segment, invalid percent-encoding, or a name longer than 255 bytes is refused with
/// ``MockError/unsafePath(path:reason:)``: a request can never make the mock read outside its directory. Nor can a
/// file in it: a symbolic link that leads outside the directory is refused too (links are resolved on both sides,
/// so a directory reached through a link works; the resolved paths are compared as bytes, so a sibling directory
/// whose name is only canonically equivalent is outside, and a resolved path that is not UTF-8 is no file).
///
/// ```swift
/// let fixtures = MockFiles.bundle(.module, subdirectory: "Fixtures")   // a test target's resources
/// let app = MockFiles.bundle(.main)                                     // the app bundle
/// let folder = MockFiles(directory: URL(fileURLWithPath: "/tmp/mocks"))
/// ```
public struct MockFiles: Sendable {
    /// The directory the files are read from.
    public let directory: URL

    /// Files in `directory`.
    public init(directory: URL) { self.directory = directory.standardizedFileURL }

    /// Files in the resources of `bundle`, or in its `subdirectory`.
    ///
    /// For a test target's resources use `Bundle.module` (declare them with `resources: [.copy("Fixtures")]` and
    /// pass `subdirectory: "Fixtures"`); for an app, `bundle(.main)`. `Bundle.main` does not hold a test target's
    /// resources: under `swift test` it is the test runner.
    public static func bundle(_ bundle: Bundle, subdirectory: String? = nil) -> MockFiles {
        let resources = bundle.resourceURL ?? bundle.bundleURL
        return MockFiles(directory: subdirectory.map { resources.appendingPathComponent($0) } ?? resources)
    }

    /// The name of the mock file that answers `method` on `path` (a URL path, percent-encoded as in a URL; a query
    /// is ignored), for example `mock_get_users_1.json` for `GET /users/1`.
    ///
    /// - Throws: ``MockError/unsafePath(path:reason:)`` when the path cannot name a file safely.
    public static func fileName(for method: HTTPMethod, path: String) throws -> String {
        let pathOnly = String(path.prefix { $0 != "?" && $0 != "#" })
        return try fileName(for: method, written: pathOnly.split(separator: "/"), path: pathOnly)
    }

    /// The characters of an HTTP method token (RFC 9110), lower-cased.
    private static let tokenCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~")

    /// The file name for `method` and the non-empty path segments as `written` in a URL (percent-encoded); `path` is
    /// only for error messages.
    static func fileName(for method: HTTPMethod, written: some Sequence<Substring>, path: String) throws -> String {
        // Decoded: `/projects/a%2Fb/` is `["projects", "a/b"]`.
        let segments = try written.map { segment in
            guard let decoded = segment.removingPercentEncoding else {
                throw MockError.unsafePath(path: path, reason: "\"\(segment)\" is not valid percent-encoding")
            }
            return decoded
        }
        let methodName = method.rawValue.lowercased()
        guard !methodName.isEmpty, methodName.allSatisfy({ tokenCharacters.contains($0) }) else {
            throw MockError.unsafePath(path: path, reason: "the method \"\(method)\" is not an HTTP token")
        }
        let names = try segments.map { segment in
            guard segment != ".", segment != ".." else {
                throw MockError.unsafePath(path: path, reason: "it has a \"\(segment)\" segment")
            }
            // Path separators and `%` percent-encoded, in normalization form C.
            return percentEncoding("/\\%", in: segment.precomposedStringWithCanonicalMapping)
        }
        let name = "mock_\(methodName)_\(names.isEmpty ? "root" : names.joined(separator: "_")).json"
        guard name.utf8.count <= 255 else {
            throw MockError.unsafePath(
                path: path.count > 80 ? String(path.prefix(80)) + "…" : path,
                reason: "its file name would be \(name.utf8.count) bytes long, more than the 255 bytes file "
                    + "systems allow")
        }
        return name
    }

    /// `text` with `characters`, the control characters and the line separators U+2028 and U+2029 percent-encoded
    /// as UTF-8 (`%2F`, `%C2%85`, `%E2%80%A8`), so that it stays on one line in a message.
    static func percentEncoding(_ characters: String, in text: String) -> String {
        let escaped = characters + "\u{2028}\u{2029}"
        return text.unicodeScalars.map { scalar in
            escaped.unicodeScalars.contains(scalar) || scalar.properties.generalCategory == .control
                ? String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined() : String(scalar)
        }.joined()
    }

    /// The URL of the existing file named `name` in ``directory``, `nil` if there is none or it would lie outside
    /// the directory (never, for names made by ``fileName(for:path:)``; checked again all the same).
    ///
    /// Symbolic links are resolved on both sides: a directory reached through a link works, a dangling link is no
    /// file, and a file that is a link to something outside the directory is refused.
    ///
    /// - Throws: ``MockError/unsafePath(path:reason:)`` (naming the request's `path`) when the file is a link that
    ///   leads outside the directory.
    func url(ofFileNamed name: String, path: String) throws -> URL? {
        let file = directory.appendingPathComponent(name, isDirectory: false).standardizedFileURL
        guard file.deletingLastPathComponent().path == directory.path,
            let realFile = Self.realPath(file.path), let realDirectory = Self.realPath(directory.path)
        else { return nil }
        // Compared as bytes: file names are bytes, and `hasPrefix` takes canonically equivalent names (`é`, `e` + `´`)
        // for one.
        let inside = realDirectory.hasSuffix("/") ? realDirectory : realDirectory + "/"
        guard realFile.utf8.starts(with: inside.utf8) else {
            throw MockError.unsafePath(
                path: path, reason: "its mock file \(name) is a link to \(realFile), outside the mock directory")
        }
        return file
    }

    /// `path` with every symbolic link resolved (`realpath(3)`), `nil` when it does not lead to an existing file or
    /// is not UTF-8.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(validatingCString: resolved)  // bytes that are not UTF-8 would turn into U+FFFD: no file
    }
}
