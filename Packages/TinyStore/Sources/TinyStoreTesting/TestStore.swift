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
/// ``finish(timeout:fileID:filePath:line:column:)`` or when the test store is released without it ("An effect
/// returned for this action is still running", at the line that sent the action), when `receive` waits past its
/// timeout (or is called with no effect running: it fails at once), or when a reducer or an effect throws (an action
/// the reducer rejects changes nothing and is not received). Effects run for real: inject their dependencies (for
/// example through a generic parameter of the feature) to make them deterministic. `receive` and `finish` wait without
/// polling: the store wakes them when an effect ends.
///
/// Failures are reported as Swift Testing issues inside a Swift Testing test, otherwise with `XCTFail`, at the line
/// of the assertion, with a line diff of the expected and actual values.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class TestStore<F: Feature> where F.State: Equatable {
    /// The state as asserted so far.
    public private(set) var state: F.State

    /// How long `receive` and ``finish(timeout:fileID:filePath:line:column:)`` wait when not given a timeout.
    private let timeout: Duration

    private let store: Store<F>
    /// Actions effects sent back, with the state right after each, not yet asserted.
    private var received: [(action: F.Action, state: F.State)] = []
    /// The store's effects as of its last change, checked when the test store is released.
    private var running: [Store<F>.RunningEffect] = []
    /// The `receive` or `finish` calls waiting, resumed when an effect ends or their wait times out.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// The latest assertion's call site, where asynchronous failures (effect errors) are reported.
    private var site: CallSite

    /// Creates a test store starting from `initialState` (by default the feature's `initialState`).
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - timeout: How long `receive` and ``finish(timeout:fileID:filePath:line:column:)`` wait by default; a wait
    ///     lasts at most about 95 years, whatever longer timeout you pass (`.seconds(Int64.max)`).
    ///   - fileID: The file of the call, where failures are reported until the first assertion (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public init(
        initialState: F.State = F.initialState, timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        (self.state, self.timeout, self.store) = (initialState, timeout, Store(initialState: initialState))
        self.site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        store.onError = { [weak self] error in self.map { reportFailure("\(error)", at: $0.site) } }
        store.onEffectEnd = { [weak self] sent in self?.wake(receiving: sent) }
    }

    deinit {
        let (running, received, site) = (running, received.map(\.action), site)
        // TCA's wording, reported at the line that sent the action.
        let stillRunning =
            "An effect returned for this action is still running. It must complete before the end of "
            + "the test: end the test with await finish()."
        for effect in running where !effect.task.isCancelled {
            Self.report(stillRunning, [effect.action], at: effect.origin as? CallSite ?? site)
        }
        let message = "The test store was released with \(received.count) received action(s) not asserted:"
        if !received.isEmpty { Self.report(message, received, at: site) }
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
        _ action: F.Action, assert update: ((inout F.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> StoreTask {
        site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        if !received.isEmpty {
            reportUnasserted("Must assert \(received.count) received action(s) before sending an action:")
            state = store.state  // Go on from the actual state: one failure, not one per later assertion.
        }
        store.origin = site
        let task = store.send(action)
        running = store.effects
        assertStateChange(to: store.state, update)
        await Task.yield()
        return task
    }

    /// Waits for the next action an effect sends back, asserts it equals `expected`, and asserts its state change.
    /// It fails at once when no effect is running to send one.
    ///
    /// ```swift
    /// await store.receive(.setRandomNumber(42)) { $0.count = 42 }
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The action expected next.
    ///   - timeout: How long to wait for the action (at most about 95 years); by default the `timeout` given to
    ///     ``init(initialState:timeout:fileID:filePath:line:column:)``.
    ///   - update: Changes the previous state into the expected one; omit it when the state must not change.
    ///   - fileID: The file of the call, where a failure is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public func receive(
        _ expected: F.Action, timeout: Duration? = nil, assert update: ((inout F.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async where F.Action: Equatable {
        site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(String(reflecting: expected), timeout: timeout, update) {
            $0 == expected ? nil : "Received an unexpected action:\n" + lineDiff(expected: expected, actual: $0)
        }
    }

    /// Waits for the next action an effect sends back, asserts `isMatching` accepts it, and asserts its state change.
    /// It fails at once when no effect is running to send one.
    ///
    /// For actions that are not `Equatable`:
    ///
    /// ```swift
    /// await store.receive({ if case .usersResponse(.success) = $0 { true } else { false } }) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - isMatching: Whether the action is the one expected next.
    ///   - timeout: How long to wait for the action (at most about 95 years); by default the `timeout` given to
    ///     ``init(initialState:timeout:fileID:filePath:line:column:)``.
    ///   - update: Changes the previous state into the expected one; omit it when the state must not change.
    ///   - fileID: The file of the call, where a failure is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public func receive(
        _ isMatching: (F.Action) -> Bool, timeout: Duration? = nil,
        assert update: ((inout F.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive("an action matching the predicate", timeout: timeout, update) { action in
            isMatching(action) ? nil : "Received an action that does not match the predicate:\n" + dumped(action)
        }
    }

    /// Waits (at most `timeout`) until every effect is done, then fails for effects still running and for received
    /// actions not asserted. Call it at the end of a test. Effects still running are cancelled.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the effects (at most about 95 years); by default the `timeout` given to
    ///     ``init(initialState:timeout:fileID:filePath:line:column:)``.
    ///   - fileID: The file of the call, where a failure is reported (leave the default).
    ///   - filePath: The path of the call's file (leave the default).
    ///   - line: The line of the call (leave the default).
    ///   - column: The column of the call (leave the default).
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        if let timeout = await wait(timeout, until: { runningActions.isEmpty }) {
            let when = Task.isCancelled ? "when its task was cancelled" : "after \(timeout)"
            let message = "\(runningActions.count) effect(s) still running \(when), started by:"
            Self.report(message, runningActions, at: site)
            for effect in store.effects { effect.task.cancel() }
        }
        if !received.isEmpty { reportUnasserted("\(received.count) received action(s) not asserted:") }
    }

    /// The actions whose effects are running and not cancelled, oldest first.
    private var runningActions: [F.Action] {
        store.effects.filter { !$0.task.isCancelled }.map(\.action)
    }

    private func receive(
        _ description: String, timeout: Duration?, _ update: ((inout F.State) throws -> Void)?,
        mismatch: (F.Action) -> String?
    ) async {
        // No effect running, none can send one: fail at once rather than at the timeout.
        let timedOut = await wait(timeout, until: { !received.isEmpty || runningActions.isEmpty })
        guard !received.isEmpty else {
            let why =
                timedOut.map { Task.isCancelled ? "its task was cancelled" : "no action arrived within \($0)" }
                ?? "no effect is running to send one"
            let running = runningActions.isEmpty ? "" : " Effects still running, started by:"
            return Self.report("Expected to receive \(description), but \(why).\(running)", runningActions, at: site)
        }
        let (action, actual) = received.removeFirst()
        if let message = mismatch(action) { reportFailure(message, at: site) }
        assertStateChange(to: actual, update)
    }

    /// Compares the state `update` expects with `actual`, reports a difference, then takes `actual` as the state.
    private func assertStateChange(to actual: F.State, _ update: ((inout F.State) throws -> Void)?) {
        defer { state = actual }
        var expected = state
        do { try update?(&expected) } catch { return reportFailure("The assertion closure threw: \(error)", at: site) }
        guard expected != actual else { return }
        let summary = update == nil ? "changed, but no change was asserted" : "change does not match the expectation"
        reportFailure("The state \(summary):\n" + lineDiff(expected: expected, actual: actual), at: site)
    }

    /// Waits until `condition` holds, `timeout` (by default the test store's) passes or the awaiting task is
    /// cancelled; returns the timeout if the condition does not hold, `nil` if it does. No polling: the store wakes the wait when an effect ends, and a
    /// timer when the time is up.
    private func wait(_ timeout: Duration?, until condition: () -> Bool) async -> Duration? {
        let timeout = timeout ?? self.timeout
        // At most about 95 years: `Task.sleep(until:)` traps on a deadline of more nanoseconds than an `Int64` holds.
        let deadline = ContinuousClock.now.advanced(by: min(timeout, .seconds(3_000_000_000)))
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)  // cancelled too: the awaiting task was
            self?.wake()
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            while !condition(), ContinuousClock.now < deadline, !Task.isCancelled {
                await withCheckedContinuation { waiters.append($0) }
            }
        } onCancel: {
            timer.cancel()
        }
        return condition() ? nil : timeout
    }

    /// Records the action an effect sent back, if any, and the store's effects; resumes the waiting `receive` and
    /// `finish` calls.
    private func wake(receiving sent: (action: F.Action, state: F.State)? = nil) {
        if let sent { received.append(sent) }
        running = store.effects
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    /// Reports `message`, followed by the received actions not asserted, and forgets them.
    private func reportUnasserted(_ message: String) {
        Self.report(message, received.map(\.action), at: site)
        received.removeAll()
    }

    /// Reports `message`, followed by the list of `actions` if there are any.
    nonisolated private static func report(_ message: String, _ actions: [F.Action], at site: CallSite) {
        reportFailure(message + actions.map { "\n  • \(String(reflecting: $0))" }.joined(), at: site)
    }
}
