/// Every example, in the order the table shows them.
public enum ExampleCatalog {
    public static var all: [any Example.Type] {
        var examples: [any Example.Type] = [
            TinyNetworkingAsync.self, TinyNetworkingCompletionHandler.self, TinyHTTPAsync.self,
            TinyHTTPCompletionHandler.self, TinyAPIAsync.self, TinyAPICompletionHandler.self, ClosuresAsync.self,
        ]
        // Observation (Store, StatefulEndpoint) needs iOS 17 / macOS 14.
        if #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *) {
            examples += [
                TinyNetworkingStatefulEndpoint.self, TinyHTTPStatefulEndpoint.self, TinyAPIStatefulEndpoint.self,
                TinyNetworkingStore.self, TinyHTTPStore.self, TinyAPIStore.self, ClosuresStore.self,
            ]
        }
        let styles = Combination.Style.allCases
        let consumers = Combination.Consumer.allCases
        return examples.sorted { a, b in
            let (x, y) = (a.combination, b.combination)
            return (styles.firstIndex(of: x.style) ?? 0, consumers.firstIndex(of: x.consumer) ?? 0)
                < (styles.firstIndex(of: y.style) ?? 0, consumers.firstIndex(of: y.consumer) ?? 0)
        }
    }

    /// The combinations that have no example, and why.
    public static let notMeaningful: [(combination: String, reason: String)] = [
        (
            "closure client × completion handler",
            "the client is a struct of async closures: a callback version would only wrap them in a Task"
        ),
        (
            "closure client × StatefulEndpoint",
            "a StatefulEndpoint shares one Endpoint, and the closure client hides its endpoints behind closures"
        ),
    ]
}
