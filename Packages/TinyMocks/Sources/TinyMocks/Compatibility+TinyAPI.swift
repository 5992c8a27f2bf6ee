// Coming from tinyAPI: its mock client presets, kept so `APIClientDependency(client: MockTinyAPIClient.demo)` and
// friends compile unchanged. TinyKit's own way is `MockTinyAPIClient(files:delay:clock:)` with the delay you want.

extension MockTinyAPIClient {
    /// For demos (tinyAPI's preset): the app bundle's files, a realistic 800 ms delay.
    public static var demo: MockTinyAPIClient { MockTinyAPIClient(delay: .milliseconds(800)) }
    /// For SwiftUI previews (tinyAPI's preset): the app bundle's files, a short 200 ms delay.
    public static var preview: MockTinyAPIClient { MockTinyAPIClient(delay: .milliseconds(200)) }
    /// For tests (tinyAPI's preset): the app bundle's files, no delay.
    public static var testing: MockTinyAPIClient { MockTinyAPIClient() }
}
