import Testing
import TinyRequestState
import TinyStore
import TinyStoreTesting

@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    typealias Counter = CounterFeature<FixedNumber>

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func counterWithItsRandomNumberEffect() async {
        let store = TestStore<Counter>()
        await store.send(.increment) { $0.count = 1 }
        await store.send(.decrement) { $0.count = 0 }
        await store.send(.loadRandomNumber) { $0.isLoading = true }
        await store.receive(.setRandomNumber(42)) {
            $0.count = 42
            $0.isLoading = false
        }
        await store.finish()
        #expect(store.state == Counter.State(count: 42, isLoading: false))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func userProfileLoads() async {
        let store = TestStore<UserProfileFeature<StubUserAPI>>()
        await store.send(.loadUser(id: "1")) { $0.isLoading = true }
        await store.receive(.userLoaded(User(id: "1", name: "Ada"))) {
            $0.user = User(id: "1", name: "Ada")
            $0.isLoading = false
        }
        await store.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func userProfileFailure() async {
        let store = TestStore<UserProfileFeature<StubUserAPI>>(
            initialState: .init(error: "old error"))
        await store.send(.loadUser(id: "2")) {
            $0.isLoading = true
            $0.error = nil
        }
        await store.receive(.userLoadFailed(UserNotFound().localizedDescription)) {
            $0.isLoading = false
            $0.error = UserNotFound().localizedDescription
        }
        await store.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func userListLoads() async {
        let store = TestStore<UserListFeature<StubUsers>>()
        await store.send(.loadUsers) { $0.users = .loading }
        await store.receive({ if case .usersResponse(.success) = $0 { true } else { false } }) {
            $0.users = .success([ListUser(id: 1, name: "John Doe", email: "john@example.com")])
        }
        let john = ListUser(id: 1, name: "John Doe", email: "john@example.com")
        await store.send(.selectUser(john)) { $0.selectedUser = john }
        await store.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func userListFailure() async {
        let store = TestStore<UserListFeature<FailingUsers>>()
        await store.send(.loadUsers) { $0.users = .loading }
        await store.receive({ if case .usersResponse(.failure) = $0 { true } else { false } }) {
            $0.users = .failure(StubAPIError.networkError("offline").localizedDescription)
        }
        await store.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func manyActionsInFlightEndInADeterministicState() async {
        let store = TestStore<LabFeature>()
        for _ in 1...20 {
            await store.send(.add(1)) { $0.log.append("add") }
            await store.receive(.added(1)) { $0.count += 1 }
        }
        await store.finish()
        #expect(store.state.count == 20)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func searchAsYouTypeDropsTheAnswerOfTheCancelledSearch() async {
        let store = TestStore<SearchFeature>()
        await store.send(.queryChanged("a")) { $0.query = "a" }
        await store.send(.queryChanged("ab")) { $0.query = "ab" }
        await store.receive(.results(["ab"])) { $0.results = ["ab"] }
        await store.send(.queryChanged("x")) { $0.query = "x" }
        await store.send(.disappeared)
        await store.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receiveAndFinishWakeUpWhenTheEffectEnds() async {
        // A long timeout: the store wakes the wait when the effect ends, long before.
        let probe = Probe()
        let store = TestStore<LabFeature>(initialState: .init(probe: probe), timeout: .seconds(600))
        await store.send(.waitForGate)
        var events = probe.events.makeAsyncIterator()
        #expect(await events.next() == "started")
        let start = ContinuousClock.now
        probe.opener.yield()
        await store.receive(.finishedWaiting) { $0.log = ["finished waiting"] }
        await store.finish()
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func sendReturnsAHandleThatCanBeCancelled() async {
        let store = TestStore<LabFeature>()
        let task = await store.send(.waitForever)
        task.cancel()
        await task.finish()
        await store.finish()
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension LabFeature.State: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.log == rhs.log
    }
}
