import Foundation
import Testing
import TinyHTTPTransport

/// The built `tinykit-examples` executable, run as a user runs it: exit status and what reaches the terminal.
///
/// `swift build --build-tests` and `swift test` build it next to the tests; when it is missing, every test here
/// fails saying so (never a silent skip that would pass CI without running the program).
@Suite(.timeLimit(.minutes(1))) struct ExecutableTests {
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let executable = try BuiltExecutable.require()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }

    @Test func printsTheTableAgainstTheEmbeddedServer() throws {
        let (status, output, error) = try run([])
        #expect(status == 0)
        #expect(error.isEmpty)
        for name in ProgramTests.combinations {
            #expect(output.contains("\n" + name + " "), "no row for \(name)")
        }
        #expect(
            output.contains(
                "14 of 14 combinations succeeded on URLSessionTransport against the demo server at http://127.0.0.1:"))
    }

    @Test func printsTheTableWithMocks() throws {
        let (status, output, _) = try run(["--mocks"])
        #expect(status == 0)
        #expect(output.contains("14 of 14 combinations succeeded against the example mocks (TinyMocks)."))
    }

    #if AsyncHTTPClient
        @Test func printsTheTableOnAsyncHTTPClient() throws {
            let (status, output, error) = try run(["--transport", "asynchttpclient"])
            #expect(status == 0)
            #expect(error.isEmpty)
            #expect(
                output.contains(
                    "14 of 14 combinations succeeded on AsyncHTTPClientTransport against the demo server at "
                        + "http://127.0.0.1:"))
        }
    #else
        @Test func refusesAsyncHTTPClientWithoutTheTraitInOneLine() throws {
            let (status, output, error) = try run(["--transport", "asynchttpclient"])
            #expect(status == 64)
            #expect(output.isEmpty)
            #expect(
                error
                    == "error: --transport asynchttpclient needs TinyKit's AsyncHTTPClient trait: "
                    + "swift run --traits AsyncHTTPClient tinykit-examples --transport asynchttpclient\n")
        }
    #endif

    @Test(arguments: [
        (["--bogus"], Int32(64), "error: unknown option '--bogus' (see --help)\n"),
        (
            ["--base-url", "http://127.0.0.1:1"], Int32(1),
            "error: cannot reach http://127.0.0.1:1: could not connect\n"
        ),
    ])
    func badInputPrintsOneLineAndFails(arguments: [String], status: Int32, message: String) throws {
        let result = try run(arguments)
        #expect(result.status == status)
        #expect(result.output.isEmpty)
        #expect(result.error == message)
    }

    @Test func servesTheDemoAPIUntilStopped() async throws {
        let executable = try BuiltExecutable.require()
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--serve"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }

        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix("Demo server listening at http://127.0.0.1:"))
        let address = try #require(text.split(separator: " ").first { $0.hasPrefix("http://") })
        let url = try #require(URL(string: String(address)))

        let (body, response) = try await URLSessionTransport().send(URLRequest(url: url.appendingRelative("users/3")))
        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("Alan Turing"))
    }

    /// A program that was not built is a failure naming where it was looked for, never a skipped suite.
    @Test func aMissingExecutableIsAnErrorNotASkip() throws {
        let error = try #require(throws: BuiltExecutable.Missing.self) { try BuiltExecutable.require("no-such-tool") }
        #expect(error.description.hasPrefix("no-such-tool is not built next to the tests (looked in /"))
    }

    @Test func helpPrintsUsage() throws {
        let (status, output, _) = try run(["--help"])
        #expect(status == 0)
        #expect(output.hasPrefix("USAGE: tinykit-examples"))
    }
}

/// The `tinykit-examples` executable in the build products folder of these tests, if it was built.
enum BuiltExecutable {
    /// The folders looked in: the one holding the test bundle, and the one holding the test runner.
    static let folders: [URL] =
        Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        .map { $0.deletingLastPathComponent() }
        + [Bundle.main.executableURL?.deletingLastPathComponent()].compactMap { $0 }

    /// The URL of the executable `name`.
    ///
    /// - Throws: ``Missing``, naming the folders looked in, when it was not built.
    static func require(_ name: String = "tinykit-examples") throws -> URL {
        guard
            let url = folders.map({ $0.appendingPathComponent(name) })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw Missing(name: name, folders: folders) }
        return url
    }

    /// The executable was not found next to the tests.
    struct Missing: Error, CustomStringConvertible {
        let name: String
        let folders: [URL]
        var description: String {
            "\(name) is not built next to the tests (looked in \(folders.map(\.path).joined(separator: ", "))): "
                + "build it with `swift build --build-tests` before `swift test --skip-build`"
        }
    }
}
