import Testing
import TinyKit

@Test(.timeLimit(.minutes(1))) func umbrellaReexportsTheTransport() {
    #expect(HTTPMethod.post.rawValue == "POST")
}
