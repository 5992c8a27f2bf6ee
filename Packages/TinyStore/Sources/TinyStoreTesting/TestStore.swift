import TinyStore

/// A store for tests that asserts every state change and every action effects send back, like the Composable
/// Architecture's `TestStore`.
///
/// ```swift
/// let store = TestStore<CounterFeature>()
/// await store.send(.increment) { $0.count = 1 }
/// await store.send(.loadRandomNumber) { $0.isLoading = true }
/// await store.receive(.setRandomNumber(42)) {
///     $0.count = 42
///     $0.isLoading = false
/// }
/// await store.finish()
/// ```
///
/// It is exhaustive: the test fails when a state changes other than asserted, when an action an effect sent back is
/// not asserted with `receive` (checked at the next `send`, at ``finish(timeout:fileID:filePath:line:column:)`` and
/// when the test store is released), when an effect is still running at
/// ``finish(timeout:fileID:filePath:line:column:)``, when `receive` waits past its timeout, or when a reducer or an
/// effect throws. Effects run for real: inject their dependencies (for example through a generic parameter of the
/// feature) to make them deterministic.
///
/// Failures are reported as Swift Testing issues inside a Swift Testing test, otherwise with `XCTFail`, at the line
/// of the assertion, with a line diff of the expected and actual values.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class TestStore<F: Feature> where F.State: Equatable {
    /// The state as asserted so far.
    public private(set) var state: F.State

    /// How long `receive` and ``finish(timeout:fileID:filePath:line:column:)`` wait when not given a timeout.
    public var timeout: Duration

    private let store: Store<F>
    /// Actions effects sent back, with the state right after each, not yet asserted.
    private var received: [(action: F.Action, state: F.State)] = []
    /// The latest assertion's call site, where asynchronous failures (effect errors) are reported.
    private var site: CallSite
    private let creationSite: CallSite

    /// Creates a test store starting from `initialState` (by default the feature's `initialState`).
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - timeout: How long `receive` and ``finish(timeout:fileID:filePath:line:column:)`` wait by default.
    ///   - fileID: The file of the call, where a failure found when the test store is released is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public init(
        initialState: F.State = F.initialState,
        timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        self.state = initialState
        self.timeout = timeout
        self.site = site
        self.creationSite = site
        self.store = Store(initialState: initialState)
        store.onError = { [weak self] error in
            guard let self else { return }
            reportFailure("\(error)", at: self.site)
        }
        store.onEffectAction = { [weak self] action, state in
            self?.received.append((action, state))
        }
    }

    deinit {
        if !received.isEmpty {
            reportFailure(
                "The test store was released with \(received.count) received action(s) not asserted:\n"
                    + Self.list(received.map(\.action)),
                at: creationSite)
        }
    }

    /// Sends an action and asserts the state change it makes.
    ///
    /// ```swift
    /// await store.send(.increment) { $0.count = 1 }
    /// ```
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - update: Changes the previous state into the expected one; omit it when the state must not change.
    ///   - fileID: The file of the call, where a failure is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    /// - Returns: The handle of the effects the action started, to await or cancel them.
    @discardableResult
    public func send(
        _ action: F.Action,
        assert update: ((inout F.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> StoreTask {
        site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        if !received.isEmpty {
            reportFailure(
                "Must assert \(received.count) received action(s) before sending an action:\n"
                    + Self.list(received.map(\.action)),
                at: site)
            received.removeAll()
            state = store.state  // Go on from the actual state: one failure, not one per later assertion.
        }
        let task = store.send(action)
        assertStateChange(to: store.state, update)
        await Task.yield()
        return task
    }

    /// Waits for the next action an effect sends back, asserts it equals `expected`, and asserts its state change.
    ///
    /// ```swift
    /// await store.receive(.setRandomNumber(42)) { $0.count = 42 }
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The action expected next.
    ///   - timeout: How long to wait for the action; by default ``timeout``.
    ///   - update: Changes the previous state into the expected one; omit it when the state must not change.
    ///   - fileID: The file of the call, where a failure is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public func receive(
        _ expected: F.Action,
        timeout: Duration? = nil,
        assert update: ((inout F.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async where F.Action: Equatable {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(String(reflecting: expected), timeout: timeout, update, at: site) { action in
            action == expected
                ? nil
                : "Received an unexpected action:\n" + lineDiff(expected: dumped(expected), actual: dumped(action))
        }
    }

    /// Waits for the next action an effect sends back, asserts `isMatching` accepts it, and asserts its state change.
    ///
    /// For actions that are not `Equatable`:
    ///
    /// ```swift
    /// await store.receive({ if case .usersResponse(.success) = $0 { true } else { false } }) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - isMatching: Whether the action is the one expected next.
    ///   - timeout: How long to wait for the action; by default ``timeout``.
    ///   - update: Changes the previous state into the expected one; omit it when the state must not change.
    ///   - fileID: The file of the call, where a failure is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public func receive(
        _ isMatching: (F.Action) -> Bool,
        timeout: Duration? = nil,
        assert update: ((inout F.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive("an action matching the predicate", timeout: timeout, update, at: site) { action in
            isMatching(action) ? nil : "Received an action that does not match the predicate:\n" + dumped(action)
        }
    }

    /// Waits (at most `timeout`) until every effect is done, then fails for effects still running and for received
    /// actions not asserted. Call it at the end of a test. Effects still running are cancelled.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the effects; by default ``timeout``.
    ///   - fileID: The file of the call, where a failure is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let timeout = timeout ?? self.timeout
        if await !wait(timeout, until: { store.runningEffects.isEmpty }) {
            let running = store.runningEffects
            reportFailure(
                "\(running.count) effect(s) still running after \(timeout), started by:\n" + Self.list(running),
                at: site)
            store.cancelEffects()
        }
        if !received.isEmpty {
            reportFailure(
                "\(received.count) received action(s) not asserted:\n" + Self.list(received.map(\.action)), at: site)
            received.removeAll()
        }
    }

    private func receive(
        _ description: String, timeout: Duration?, _ update: ((inout F.State) throws -> Void)?, at site: CallSite,
        mismatch: (F.Action) -> String?
    ) async {
        self.site = site
        let timeout = timeout ?? self.timeout
        guard await wait(timeout, until: { !received.isEmpty }) else {
            let running = store.runningEffects
            reportFailure(
                "Expected to receive \(description), but no action arrived within \(timeout)."
                    + (running.isEmpty ? "" : " Effects still running, started by:\n" + Self.list(running)),
                at: site)
            return
        }
        let (action, actual) = received.removeFirst()
        if let message = mismatch(action) {
            reportFailure(message, at: site)
        }
        assertStateChange(to: actual, update)
    }

    /// Compares the state `update` expects with `actual`, reports a difference, then takes `actual` as the state.
    private func assertStateChange(to actual: F.State, _ update: ((inout F.State) throws -> Void)?) {
        defer { state = actual }
        var expected = state
        do {
            try update?(&expected)
        } catch {
            reportFailure("The assertion closure threw: \(error)", at: site)
            return
        }
        guard expected != actual else { return }
        let summary =
            update == nil
            ? "The state changed, but no change was asserted:" : "The state change does not match the expectation:"
        reportFailure(summary + "\n" + lineDiff(expected: dumped(expected), actual: dumped(actual)), at: site)
    }

    /// Waits until `condition` holds or `timeout` passes; returns whether it holds.
    private func wait(_ timeout: Duration, until condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !condition() {
            guard clock.now < deadline, !Task.isCancelled else { return false }
            await Task.yield()
            if condition() { break }
            try? await clock.sleep(for: .milliseconds(1))
        }
        return true
    }

    nonisolated private static func list(_ actions: [F.Action]) -> String {
        actions.map { "  • \(String(reflecting: $0))" }.joined(separator: "\n")
    }
}
