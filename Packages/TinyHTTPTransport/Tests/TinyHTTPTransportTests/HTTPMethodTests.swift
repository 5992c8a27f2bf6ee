import Testing
import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct HTTPMethodTests {
    @Test func bothSeedSpellingsAreTheSameMethod() {
        #expect(HTTPMethod.get == .GET)
        #expect(HTTPMethod.delete.rawValue == "DELETE")
    }

    @Test func customTokensAreUppercased() {
        #expect(HTTPMethod(rawValue: "propfind").rawValue == "PROPFIND")
        let literal: HTTPMethod = "patch"
        #expect(literal == .patch)
    }
}
