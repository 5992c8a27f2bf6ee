extension MockTransport {
    /// A mock for demos: files from `files` (the app bundle by default), a realistic delay (``MockDelay/demo``).
    public static func demo(files: MockFiles = .main, clock: MockClock = .continuous) -> MockTransport {
        MockTransport(files: files, delay: .demo, clock: clock)
    }

    /// A mock for SwiftUI previews: files from `files` (the app bundle by default), a short delay
    /// (``MockDelay/preview``).
    public static func preview(files: MockFiles = .main, clock: MockClock = .continuous) -> MockTransport {
        MockTransport(files: files, delay: .preview, clock: clock)
    }

    /// A mock for tests: files from `files`, no delay.
    public static func testing(files: MockFiles = .main) -> MockTransport {
        MockTransport(files: files, delay: .testing)
    }
}
