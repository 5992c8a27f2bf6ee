import Foundation
import Testing
import TinyEndpoint

@Suite(.timeLimit(.minutes(1))) struct EndpointErrorTests {
    @Test func localizedDescriptionSaysWhatHappened() {
        let error: any Error = EndpointError.invalidURL("ht tp://x", reason: "no scheme")
        #expect(error.localizedDescription == (error as? EndpointError)?.description)
        #expect(error.localizedDescription.contains("ht tp://x"))
    }
}
