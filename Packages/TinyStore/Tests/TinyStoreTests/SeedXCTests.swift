import TinyStore
import TinyStoreTesting
import XCTest

/// tinyAPI's XCTest, unchanged but for the stub client: the seed's assertions compile against `RequestState`.
final class SeedXCTests: XCTestCase {
    func testUserLoading() async throws {
        let feature = UserListFeature<StubUsers>.self

        // Test loading state
        var state = feature.initialState
        try feature.reducer(state: &state, action: .loadUsers)
        XCTAssertEqual(state.users, .loading)

        // Test success response
        let users = [ListUser(id: 1, name: "Test", email: "test@example.com")]
        try feature.reducer(state: &state, action: .usersResponse(.success(users)))
        XCTAssertEqual(state.users, .success(users))
    }
}

/// A test store under XCTest (no Swift Testing test is current): a passing run reports nothing.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
final class TestStoreXCTests: XCTestCase {
    @MainActor func testCounterUnderXCTest() async {
        let store = TestStore<CounterFeature<FixedNumber>>()
        await store.send(.loadRandomNumber) { $0.isLoading = true }
        await store.receive(.setRandomNumber(42)) {
            $0.count = 42
            $0.isLoading = false
        }
        await store.finish()
        XCTAssertEqual(store.state.count, 42)
    }
}
