import Testing

@testable import TinyStore

// Placeholder until this package's issue lands: checks only that the module builds and links.
@Test func moduleLinks() {
    #expect(Bool(true))
}
