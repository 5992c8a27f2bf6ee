import Foundation

/// The command line of `tinykit-examples`.
public struct ExamplesOptions: Sendable, Equatable {
    /// Where the examples send their requests.
    public enum Target: Sendable, Equatable {
        /// A demo server started in this process on 127.0.0.1.
        case demoServer
        /// A server at this base URL, for example `https://jsonplaceholder.typicode.com`.
        case baseURL(URL)
        /// The example mocks (TinyMocks), no network.
        case mocks
    }

    /// The client that sends the examples' requests to a server (`--transport`).
    public enum Transport: String, Sendable, Equatable, CaseIterable {
        /// `URLSessionTransport`, the default.
        case urlsession
        /// `AsyncHTTPClientTransport`, in a build with TinyKit's `AsyncHTTPClient` trait.
        case asynchttpclient

        /// The transport's type, as the program names it in its summary.
        public var typeName: String {
            switch self {
            case .urlsession: "URLSessionTransport"
            case .asynchttpclient: "AsyncHTTPClientTransport"
            }
        }
    }

    public var target: Target = .demoServer
    /// The client of the demo server or `--base-url`; `--mocks` sends nothing.
    public var transport: Transport = .urlsession
    /// Runs only the combinations whose name contains this text (case-insensitive).
    public var only: String?
    public var showHelp = false
    /// Only serves the demo API (on `port`, or a free port) until the program is stopped.
    public var serve = false
    public var port: UInt16?

    public init(
        target: Target = .demoServer, transport: Transport = .urlsession, only: String? = nil, showHelp: Bool = false,
        serve: Bool = false, port: UInt16? = nil
    ) {
        self.target = target
        self.transport = transport
        self.only = only
        self.showHelp = showHelp
        self.serve = serve
        self.port = port
    }

    public static let usage = """
        USAGE: tinykit-examples [--mocks | --base-url <url>] [--transport <client>] [--only <text>]
               tinykit-examples --serve [--port <port>]

        Runs every TinyKit example (each declaration style with each consumer) and prints a table.
        By default the examples talk to a demo REST server started on 127.0.0.1 (/users, /todos, /posts).

        OPTIONS:
          --base-url <url>  Use the JSON API at <url> instead, e.g. https://jsonplaceholder.typicode.com
          --mocks           Use the example mocks (JSON files served by TinyMocks); no network
          --transport <client>
                            Send with urlsession (URLSessionTransport, the default) or asynchttpclient
                            (AsyncHTTPClientTransport; build with its trait:
                            swift run --traits AsyncHTTPClient tinykit-examples --transport asynchttpclient)
          --only <text>     Run only the combinations whose name contains <text>, e.g. --only tinyAPI
          --serve           Only start the demo server and keep it running (Ctrl-C stops it)
          --port <port>     The port of --serve (default: a free one)
          -h, --help        Show this help
        """

    /// Parses the arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> ExamplesOptions {
        var options = ExamplesOptions()
        var remaining = arguments[...]
        var baseURL: URL?
        var mocks = false
        var transport: Transport?
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError("\(name) needs a value")
                }
                return next
            }
            if let inlineValue, ["-h", "--help", "--mocks", "--serve"].contains(name) {
                throw UsageError("\(name) takes no value, got '\(inlineValue)'")
            }
            switch name {
            case "-h", "--help":
                options.showHelp = true
            case "--mocks":
                mocks = true
            case "--base-url":
                baseURL = try parseBaseURL(try value())
            case "--transport":
                let text = try value()
                guard let client = Transport(rawValue: text.lowercased()) else {
                    throw UsageError("--transport needs urlsession or asynchttpclient, got '\(text)'")
                }
                transport = client
            case "--only":
                options.only = try value()
            case "--serve":
                options.serve = true
            case "--port":
                let text = try value()
                guard let port = UInt16(text) else {
                    throw UsageError("--port needs a number from 0 to 65535, got '\(text)'")
                }
                options.port = port
            default:
                throw UsageError(
                    argument.hasPrefix("-") ? "unknown option '\(name)'" : "unexpected argument '\(argument)'")
            }
        }
        if options.serve, baseURL != nil || mocks || options.only != nil || transport != nil {
            throw UsageError(
                "--serve runs no examples: it cannot be combined with --mocks, --base-url, --transport or --only")
        }
        if mocks, transport != nil {
            throw UsageError("--mocks sends nothing: it cannot be combined with --transport")
        }
        options.transport = transport ?? .urlsession
        if options.port != nil, !options.serve {
            throw UsageError("--port is only used with --serve")
        }
        switch (baseURL, mocks) {
        case (.some, true): throw UsageError("use either --mocks or --base-url, not both")
        case (.some(let url), false): options.target = .baseURL(url)
        case (nil, true): options.target = .mocks
        case (nil, false): options.target = .demoServer
        }
        return options
    }

    /// `--name=value` as (`--name`, `value`); anything else as (argument, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func parseBaseURL(_ text: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false, (0...65_535).contains(url.port ?? 0)
        else {
            throw UsageError("--base-url needs an http or https URL, got '\(text)'")
        }
        return url
    }
}

/// A command line the program cannot run, with the one line that says why.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
