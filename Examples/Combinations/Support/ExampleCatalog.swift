/// Every example, in the order the table shows them.
public enum ExampleCatalog {
    public static let all: [any Example.Type] = [
        TinyNetworkingAsync.self
    ]
}
