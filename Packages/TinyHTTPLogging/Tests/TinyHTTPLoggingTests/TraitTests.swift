import Testing

// The root Package.swift builds TinyHTTPLogging (and these tests) with swift-log only under its `Logging` trait, which
// is off by default: a root `swift test` without it compiles the other files of this target to nothing. This test
// says so in the test report instead of passing in silence. The standalone package always sets `Logging`.
#if !Logging
    @Suite(.timeLimit(.minutes(1))) struct LoggingTraitTests {
        @Test(.disabled("TinyHTTPLogging is built without its Logging trait: run `swift test --traits Logging`"))
        func loggingTestsNeedTheTrait() {}
    }
#endif
