import Foundation
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks

/// libFuzzer's entry point: URL building, query encoding and the mock file-name mapping on arbitrary text.
///
/// The input is split at `0xFF` bytes (never part of UTF-8 text, so a field may hold any character, a line feed too)
/// into a base URL, a path, a query name, a query value and a method, each decoded as UTF-8.
/// Throwing is fine; a crash, or a broken invariant (checked with `precondition`), is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    var parts = UnsafeRawBufferPointer(start: start, count: count).split(
        separator: 0xFF, omittingEmptySubsequences: false
    )
    .map { String(decoding: $0, as: UTF8.self) }
    while parts.count < 5 { parts.append("") }
    let (base, path, name, value, method) = (parts[0], parts[1], parts[2], parts[3], parts[4])

    checkQueryRoundTrip(name: name, value: value)
    checkRequestBuilding(baseURL: base, path: path, query: [URLQueryItem(name: name, value: value)])
    checkMockFileName(method: HTTPMethod(rawValue: method.isEmpty ? "GET" : method), path: path)
    return 0
}

/// A query item appended to a URL decodes back to exactly the same name and value.
private func checkQueryRoundTrip(name: String, value: String) {
    guard let url = URL(string: "https://api.example.com/items?first=1") else { return }
    let built = url.appendingQueryItems([URLQueryItem(name: name, value: value)])
    let items = URLComponents(url: built, resolvingAgainstBaseURL: false)?.queryItems ?? []
    precondition(items.count == 2, "query items lost: \(built.absoluteString)")
    precondition(
        items[1].name == name && items[1].value == value,
        "query item \(name.debugDescription)=\(value.debugDescription) came back as \(items[1])")
}

private struct FuzzEndpoint: TinyAPIEndpoint {
    var baseURL: String
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem]?
}

/// Building a request either throws or gives a URL under the base URL's host, without dot segments.
private func checkRequestBuilding(baseURL: String, path: String, query: [URLQueryItem]) {
    guard let request = try? FuzzEndpoint(baseURL: baseURL, path: path, queryItems: query).makeRequest() else {
        return
    }
    guard let url = request.url else { preconditionFailure("a request without URL for \(baseURL.debugDescription)") }
    let base = URLComponents(string: baseURL)
    precondition(url.host == base?.url?.host, "host changed: \(baseURL.debugDescription) → \(url.absoluteString)")
    let segments = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath.split(separator: "/")
    let basePath = base?.percentEncodedPath.split(separator: "/") ?? []
    precondition(
        segments.map { $0.starts(with: basePath) } ?? false,
        "left the base path: \(baseURL.debugDescription) + \(path.debugDescription) → \(url.absoluteString)")
    // A segment a server reads as `.` or `..` (percent-decoded once, as it decodes it) would climb out of it.
    let added = (segments ?? []).dropFirst(basePath.count).map { $0.removingPercentEncoding ?? String($0) }
    precondition(
        !added.contains { $0 == "." || $0 == ".." },
        "a dot segment: \(baseURL.debugDescription) + \(path.debugDescription) → \(url.absoluteString)")
}

/// A mock file name is one plain file name in the mock directory, never a path.
private func checkMockFileName(method: HTTPMethod, path: String) {
    guard let name = try? MockFiles.fileName(for: method, path: path) else { return }
    // Compared as bytes: a scalar such as U+0600 joins the following "." into one Character.
    let bytes = Array(name.utf8)
    precondition(
        bytes.starts(with: "mock_".utf8) && bytes.reversed().starts(with: ".json".utf8.reversed())
            && !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(0) && bytes.count <= 255,
        "bad name \(name.debugDescription)")
    let directory = URL(fileURLWithPath: "/tmp/mocks", isDirectory: true)
    let file = directory.appendingPathComponent(name).standardizedFileURL
    precondition(file.deletingLastPathComponent().path == directory.path, "\(name) leaves the directory")
}

/// libFuzzer's driver (in the toolchain's libFuzzer).
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// The program's entry point: SwiftPM links an executable target's `main` to `<target>_main`, and libFuzzer's own
/// `main` is not used, so this hands the arguments to libFuzzer's driver.
@_cdecl("tinykit_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return runDriver(&argc, &argv) { start, count in fuzz(start, count) }
}
