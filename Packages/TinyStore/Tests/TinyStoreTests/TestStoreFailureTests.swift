import Foundation
import Testing
import TinyStore
import TinyStoreTesting

/// The messages of the issues a `withKnownIssue` block records.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
final class IssueMessages: @unchecked Sendable {
    // Every access to `messages` holds `lock`, so the matcher (called from any task) can record while tests read.
    private let lock = NSLock()
    private var messages: [(message: String, line: Int?)] = []

    /// Records an issue's comments and line; returns `true` so every issue counts as known.
    func record(_ issue: Issue) -> Bool {
        let message = issue.comments.map(\.rawValue).joined(separator: "\n")
        lock.withLock { messages.append((message, issue.sourceLocation?.line)) }
        return true
    }

    var all: [String] { lock.withLock { messages.map(\.message) } }
    var lines: [Int?] { lock.withLock { messages.map(\.line) } }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreFailureTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    typealias Counter = CounterFeature<FixedNumber>

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func wrongExpectedState() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.increment) { $0.count = 2 }
            await store.finish()  // every action of this seed-shaped feature runs an effect
        } matching: {
            issues.record($0)
        }
        let message = try #require(issues.all.first)
        #expect(issues.all.count == 1)
        #expect(message.contains("The state change does not match the expectation"))
        #expect(message.contains("−   - count: 2\n+   - count: 1\n    - isLoading: false"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theDiffShowsLinesRemovedAndAddedInPlace() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<LabFeature>(initialState: .init(log: ["a", "b"]))
            await store.send(.failed("c")) { $0.log = ["a", "x", "b"] }
            await store.finish()
        } matching: {
            issues.record($0)
        }
        let message = try #require(issues.all.first)
        #expect(issues.all.count == 1)
        #expect(
            message.contains(
                #"▿ log: 3 elements\#n      - "a"\#n−     - "x"\#n      - "b"\#n+     - "c"\#n    - probe"#))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func unexpectedStateChange() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.increment)
            await store.finish()  // every action of this seed-shaped feature runs an effect
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        #expect(try #require(issues.all.first).contains("The state changed, but no change was asserted"))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receivedActionNotAssertedAtFinish() async throws {
        let issues = IssueMessages()
        let finishLine = #line + 4
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.loadRandomNumber) { $0.isLoading = true }
            await store.finish()
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        let message = try #require(issues.all.first)
        #expect(message.hasPrefix("1 received action(s) not asserted"))  // by `finish`, not by the release after it
        #expect(message.contains("setRandomNumber(42)"))
        #expect(issues.lines == [finishLine])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receivedActionNotAssertedBeforeTheNextSend() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<Counter>()
            await store.send(.loadRandomNumber) { $0.isLoading = true }.finish()
            await store.send(.increment) { $0.count = 43 }
            await store.finish()  // every action of this seed-shaped feature runs an effect
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
    @Test func effectStillRunningWhenReleasedWithoutFinish() async throws {
        let issues = IssueMessages()
        let searchLine = #line + 4
        let seedLine = #line + 5
        await withKnownIssue {
            var search: TestStore<SearchFeature>? = TestStore()
            await search?.send(.queryChanged("a")) { $0.query = "a" }
            var seedShaped: TestStore<LabFeature>? = TestStore()
            await seedShaped?.send(.waitForever)
            var cancelled: TestStore<LabFeature>? = TestStore()
            await cancelled?.send(.waitForever).cancel()  // cancelled: not reported
            (search, seedShaped, cancelled) = (nil, nil, nil)
        } matching: {
            issues.record($0)
        }
        let prefix = "An effect returned for this action is still running. It must complete before the end of the test"
        #expect(issues.all.count == 2)
        #expect(issues.all.allSatisfy { $0.hasPrefix(prefix) })
        #expect(try #require(issues.all.first).hasSuffix(#"SearchFeature.Action.queryChanged("a")"#))
        #expect(try #require(issues.all.last).hasSuffix("LabFeature.Action.waitForever"))
        #expect(issues.lines == [searchLine, seedLine])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEffectOfAnActionSentBackIsReportedAtTheLineThatSentTheFirstAction() async throws {
        let issues = IssueMessages()
        let probe = Probe()
        let relayLine = #line + 4
        await withKnownIssue {
            var store: TestStore<LabFeature>? = TestStore(initialState: .init(probe: probe))
            // Its effect sends back `.waitForever`, whose effect is still running when the store goes.
            await store?.send(.relayAfterGate)
            // The latest send, not where `.waitForever` came from. Its effect returns nil at once, but in a task of its
            // own: awaited, since on a loaded machine that task may not have run when the store goes (reported too).
            await store?.send(.increment) { $0.count = 1 }.finish()
            probe.opener.yield()
            await store?.receive(.waitForever)
            store = nil
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 1)
        #expect(try #require(issues.all.first).hasSuffix("LabFeature.Action.waitForever"))
        #expect(issues.lines == [relayLine])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receiveTimesOut() async throws {
        let issues = IssueMessages()
        await withKnownIssue {
            let store = TestStore<LabFeature>()
            await store.send(.waitForever)  // an effect that sends nothing within the timeout
            await store.receive(.finishedWaiting, timeout: .milliseconds(20))
        } matching: {
            issues.record($0)
        }
        #expect(issues.all.count == 2)  // and the effect still running when the store goes
        #expect(try #require(issues.all.first).contains("no action arrived within 0.02 seconds."))
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
            await store.finish()  // every action of this seed-shaped feature runs an effect
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
            await store.finish()  // every action of this seed-shaped feature runs an effect
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
