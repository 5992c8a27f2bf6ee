import Foundation
import Testing
import TinyRequestState

@testable import TinyStatefulEndpoint

@Suite struct ObserveTests {
    @MainActor @Test func observerGetsCurrentStateThenEveryChangeInOrder() async throws {
        let transport = StubTransport(numberedResponses)
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }
        #expect(seen == [.idle])
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(seen == [.idle, .loading, .success("v1")])
        #expect(await transport.callCount == 1)
    }
}
