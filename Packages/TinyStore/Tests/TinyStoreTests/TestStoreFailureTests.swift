import Foundation
import Testing
import TinyStore
import TinyStoreTesting

/// The messages of the issues a `withKnownIssue` block records.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
final class IssueMessages: @unchecked Sendable {
    // Every access to `messages` holds `lock`, so the matcher (called from any task) can record while tests read.
    private let lock = NSLock()
    private var messages: [String] = []

    /// Records an issue's comments; returns `true` so every issue counts as known.
    func record(_ issue: Issue) -> Bool {
        let message = issue.comments.map(\.rawValue).joined(separator: "\n")
        lock.withLock { messages.append(message) }
        return true
    }

    var all: [String] { lock.withLock { messages } }
}

@MainActor
@Suite struct TestStoreFailureTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    typealias Counter = CounterFeature<FixedNumber>

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func wrongExpectedState() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.increment) { $0.count = 2 }
        } matching: {
            issues.record($0)
        }
        let message = try #require(issues.all.first)
        #expect(issues.all.count == 1)
        #expect(message.contains("The state change does not match the expectation"))
        #expect(message.contains("−   - count: 2\n+   - count: 1\n    - isLoading: false"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func unexpectedStateChange() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.increment)
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        #expect(try #require(issues.all.first).contains("The state changed, but no change was asserted"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receivedActionNotAssertedAtFinish() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.loadRandomNumber) { $0.isLoading = true }
            await store.finish()
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        let message = try #require(issues.all.first)
        #expect(message.contains("1 received action(s) not asserted"))
        #expect(message.contains("setRandomNumber(42)"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receivedActionNotAssertedBeforeTheNextSend() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.loadRandomNumber) { $0.isLoading = true }.finish()
            await store.send(.increment) { $0.count = 43 }
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        #expect(try #require(issues.all.first).contains("Must assert 1 received action(s) before sending"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receivedActionNotAssertedWhenReleased() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            var store: TestStore<Counter>? = TestStore()
            await store?.send(.loadRandomNumber) { $0.isLoading = true }.finish()
            store = nil
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        #expect(try #require(issues.all.first).contains("released with 1 received action(s) not asserted"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func effectStillRunningAtFinish() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<LabFeature>()
            await store.send(.waitForever)
            await store.finish(timeout: .milliseconds(20))
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        let message = try #require(issues.all.first)
        #expect(message.contains("1 effect(s) still running"))
        #expect(message.contains("waitForever"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receiveTimesOut() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.receive(.setRandomNumber(1), timeout: .milliseconds(20))
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        #expect(try #require(issues.all.first).contains("no action arrived within"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receivedAnotherAction() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.loadRandomNumber) { $0.isLoading = true }
            await store.receive(.setRandomNumber(7)) {
                $0.count = 42
                $0.isLoading = false
            }
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        let message = try #require(issues.all.first)
        #expect(message.contains("Received an unexpected action"))
        #expect(message.contains("− ") && message.contains("7"))
        #expect(message.contains("+ ") && message.contains("42"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receivedActionFailsThePredicate() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.loadRandomNumber) { $0.isLoading = true }
            await store.receive({ $0 == .increment }) {
                $0.count = 42
                $0.isLoading = false
            }
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        #expect(try #require(issues.all.first).contains("does not match the predicate"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func reducerAndEffectErrorsFail() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<LabFeature>()
            await store.send(.reject)
            await store.send(.fail)
            await store.finish()
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 2)
        #expect(issues.all.first == "The reducer threw for action reject: Rejected()")
        #expect(issues.all.last == "The effect threw for action fail: Boom()")
    }
}
