#if os(Linux)
    import TinyStore
    import TinyStoreTesting
    import XCTest

    /// A test store's failures under XCTest on Linux, where `XCTExpectFailure` does not exist: they must reach
    /// `XCTFail`, at the assertion's line. This test case catches them by overriding `recordFailure` while
    /// `capturing` is set (and fails as usual otherwise).
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    final class TestStoreXCTestFailureTests: XCTestCase {
        private var capturing = false
        private var captured: [(description: String, line: Int)] = []

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard capturing else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            captured.append((description, lineNumber))
        }

        @MainActor func testAWrongExpectationAndAnUnassertedActionFailThroughXCTFail() async {
            capturing = true
            let store = TestStore<CounterFeature<FixedNumber>>()
            let sendLine = #line + 1
            await store.send(.increment) { $0.count = 2 }
            await store.send(.loadRandomNumber) { $0.isLoading = true }
            let finishLine = #line + 1
            await store.finish()
            capturing = false

            XCTAssertEqual(captured.map(\.line), [sendLine, finishLine])
            XCTAssertTrue(captured.first?.description.contains("does not match the expectation") == true)
            XCTAssertTrue(captured.last?.description.contains("received action(s) not asserted") == true)
        }
    }
#endif
