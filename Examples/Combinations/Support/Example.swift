import Foundation
import TinyHTTPTransport

/// One runnable example: a declaration style used by a consumer.
public protocol Example: Sendable {
    /// Which style and consumer the example shows.
    static var combination: Combination { get }
    /// Runs the example against the server or mocks of `context` and reports what happened.
    static func run(_ context: ExampleContext) async throws -> ExampleReport
}

/// Where an example sends its requests.
public struct ExampleContext: Sendable {
    /// The API's base URL, for example `http://127.0.0.1:54321` or `https://jsonplaceholder.typicode.com`.
    public var baseURL: URL
    /// The transport every request goes through: the network, or TinyMocks' JSON files.
    public var transport: any HTTPTransport

    public init(baseURL: URL, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }
}

/// What an example did and what came back, as the examples table shows it.
public struct ExampleReport: Sendable, Equatable, CustomStringConvertible {
    /// The calls made, for example `GET /posts, POST /posts`.
    public var did: String
    /// What came back, for example `4 posts, first "Notes on the engine"`.
    public var result: String

    public init(did: String, result: String) {
        self.did = did
        self.result = result
    }

    public var description: String { "\(did) → \(result)" }
}

/// A declaration style and a consumer.
public struct Combination: Sendable, Hashable, CustomStringConvertible {
    public var style: Style
    public var consumer: Consumer
    /// The example's source file, relative to the repository root.
    public var file: String

    public init(_ style: Style, _ consumer: Consumer, file: String) {
        self.style = style
        self.consumer = consumer
        self.file = file
    }

    public var description: String { "\(style) × \(consumer)" }

    /// How endpoints are declared.
    public enum Style: String, Sendable, CaseIterable, CustomStringConvertible {
        case tinyNetworking = "TinyNetworking"
        case tinyHTTP = "TinyHTTP"
        case tinyAPI = "tinyAPI"
        case closures = "closure client"

        public var description: String { rawValue }
    }

    /// How the result is consumed.
    public enum Consumer: String, Sendable, CaseIterable, CustomStringConvertible {
        case async = "async"
        case completionHandler = "completion handler"
        case statefulEndpoint = "StatefulEndpoint"
        case store = "Store"

        public var description: String { rawValue }
    }
}

/// An example that ended in an unexpected state.
public struct ExampleFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ unexpected: Any) {
        description = "unexpected \(unexpected)"
    }
}
