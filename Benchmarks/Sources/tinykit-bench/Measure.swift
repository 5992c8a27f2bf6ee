import Foundation
import Synchronization

/// `key=value` arguments after the mode, with defaults.
struct Options: Sendable {
    private let values: [String: String]

    init(_ arguments: [String]) {
        var values: [String: String] = [:]
        for argument in arguments {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { fail("expected key=value, got \(argument)") }
            values[parts[0]] = parts[1]
        }
        self.values = values
    }

    func int(_ key: String, default value: Int) -> Int {
        guard let text = values[key] else { return value }
        guard let number = Int(text), number >= 0 else { fail("\(key) must be a count, got \(text)") }
        return number
    }

    func seconds(_ key: String, default value: Double) -> Double {
        guard let text = values[key] else { return value }
        guard let number = Double(text), number > 0 else { fail("\(key) must be seconds, got \(text)") }
        return number
    }

    func string(_ key: String) -> String {
        guard let text = values[key] else { fail("missing \(key)=…") }
        return text
    }

    func url(_ key: String) -> URL {
        guard let url = optionalURL(key) else { fail("missing \(key)=…") }
        return url
    }

    func optionalURL(_ key: String) -> URL? {
        guard let text = values[key] else { return nil }
        guard let url = URL(string: text), url.scheme != nil else { fail("\(key) is not a URL: \(text)") }
        return url
    }
}

/// Ends the benchmark with a message on standard error.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tinykit-bench: \(message)\n".utf8))
    exit(1)
}

/// One line of the results table: `| area | case | result | ratio | note |`.
func row(_ area: String, _ name: String, _ result: String, ratio: String = "", note: String = "") {
    print("| \(area) | \(name) | \(result) | \(ratio) | \(note) |")
    fflush(nil)  // results appear as they are measured, also through a pipe
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func format(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// How many operations a bounded run completed, and in how many seconds.
struct Run {
    var count: Int
    var seconds: Double
    var perSecond: Double { Double(count) / seconds }
    var nanosecondsEach: Double { seconds * 1e9 / Double(count) }
}

/// Runs `body` `count` times, or until `timeLimit` seconds have passed, whichever comes first.
func bounded(count: Int, timeLimit: Double, _ body: () throws -> Void) rethrows -> Run {
    let start = now()
    let deadline = start + UInt64(timeLimit * 1e9)
    var done = 0
    while done < count {
        try body()
        done += 1
        if done.isMultiple(of: 64), now() > deadline { break }
    }
    return Run(count: done, seconds: Double(now() - start) / 1e9)
}

/// Runs the bodies `count` times in all, each in a task of its own, all at once (each task takes the next iteration
/// when it finishes one), or until `timeLimit` seconds have passed.
func bounded(count: Int, bodies: [@Sendable () async throws -> Void], timeLimit: Double) async throws -> Run {
    let claimed = Counter()
    let completed = Counter()
    let start = now()
    let deadline = start + UInt64(timeLimit * 1e9)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for body in bodies {
            group.addTask {
                while claimed.increment() <= count, now() < deadline {
                    try await body()
                    completed.increment()
                }
            }
        }
        try await group.waitForAll()
    }
    return Run(count: completed.value, seconds: Double(now() - start) / 1e9)
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A counter any thread may increment.
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)

    /// Adds one and returns the new value.
    @discardableResult
    func increment() -> Int { atomic.add(1, ordering: .relaxed).newValue }

    var value: Int { atomic.load(ordering: .relaxed) }
}
