import Foundation

extension URL {
    /// `https://jsonplaceholder.typicode.com`, the public API the demo server imitates: the live default of the
    /// examples' dependencies.
    public static let jsonPlaceholder = URL(string: "https://jsonplaceholder.typicode.com") ?? URL(fileURLWithPath: "/")
}
