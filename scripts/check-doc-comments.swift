// Lists the public declarations of TinyKit's own sources that have no doc comment, from symbol graphs.
// Usage: swift scripts/check-doc-comments.swift <source folder> <file.symbols.json>...; exits 1 when it lists any.
// scripts/build-docs.sh runs it on each documented module's graphs, with Packages/ as the source folder.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let root = arguments.first.map({ URL(fileURLWithPath: $0).standardizedFileURL.absoluteString }) else {
    FileHandle.standardError.write(Data("usage: check-doc-comments.swift <source root> <graph>...\n".utf8))
    exit(2)
}
let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.absoluteString
var missing: [String] = []
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path),
        let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let symbols = graph["symbols"] as? [[String: Any]]
    else {
        missing.append("\(path): not a symbol graph")
        continue
    }
    for symbol in symbols where symbol["docComment"] == nil {
        // An extension block (`public extension URLRequest`'s braces) documents nothing itself; its members do.
        let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String
        guard kind != "swift.extension", ["public", "open"].contains(symbol["accessLevel"] as? String),
            let location = symbol["location"] as? [String: Any], let uri = location["uri"] as? String,
            uri.hasPrefix(root)
        else { continue }
        let name = (symbol["pathComponents"] as? [String])?.joined(separator: ".") ?? "?"
        missing.append(
            "\(uri.hasPrefix(here) ? String(uri.dropFirst(here.count)) : uri): public \(name) has no doc comment")
    }
}
for line in Set(missing).sorted() { print(line) }
exit(missing.isEmpty ? 0 : 1)
