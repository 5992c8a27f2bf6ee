import Testing
import TinyKit

@Test func umbrellaReexportsTheTransport() {
    #expect(HTTPMethod.post.rawValue == "POST")
}
