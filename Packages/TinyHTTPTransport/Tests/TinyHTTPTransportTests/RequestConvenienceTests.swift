import Foundation
import Testing
@_spi(TinyKit) @testable import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct RequestConvenienceTests {
    let url = URL(fileURLWithPath: "/tmp/example")

    @Test func methodInitializerSetsTheMethod() {
        let request = URLRequest(method: .patch, url: url)
        #expect(request.httpMethod == "PATCH")
        #expect(request.method == .patch)
    }

    @Test func typedMethodDefaultsToGetAndWrites() {
        var request = URLRequest(url: url)
        #expect(request.method == .get)
        request.method = .delete
        #expect(request.httpMethod == "DELETE")
    }

    @Test func acceptAndContentTypeHeaders() {
        var request = URLRequest(url: url)
        request.httpAccept(.json)
        request.httpContentType("application/x-www-form-urlencoded")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }

    /// A default header never overrides the caller's own, whatever the case of its name.
    @Test func addingADefaultKeepsTheCallersField() {
        let own = ["content-type": "text/plain"]
        #expect(own.addingDefault("Content-Type", "application/json") == own)
        let added = ["Accept": "text/html"].addingDefault("Content-Type", "application/json")
        #expect(added == ["Accept": "text/html", "Content-Type": "application/json"])
    }

    @Test func contentTypesAreExtensible() {
        let custom: ContentType = "application/vnd.api+json"
        #expect(custom.rawValue == "application/vnd.api+json")
        #expect(ContentType(rawValue: "text/plain") == "text/plain")
        #expect(ContentType(rawValue: "application/xml").description == "application/xml")
        #expect(Set<ContentType>([.json, .json, "text/html"]).count == 2)
    }
}

@Suite(.timeLimit(.minutes(1))) struct HeaderValidationTests {
    let url = URL(fileURLWithPath: "/tmp/example")

    @Test(arguments: ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\0b"])
    func lineBreaksInValuesAreRefused(value: String) throws {
        var request = URLRequest(url: url)
        // `setValue(_:forHTTPHeaderField:)` drops such values silently on Linux; `allHTTPHeaderFields` keeps them.
        request.allHTTPHeaderFields = ["Accept": "fine", "X-Trace": value]
        let error = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(error.code == .invalidRequest)
        #expect(error.message == #"the value of the header "X-Trace" contains CR, LF or NUL"#)
        #expect(!error.description.contains("Injected"))
        #expect(error.request == request)
    }

    @Test func lineBreaksInNamesAreRefused() throws {
        var request = URLRequest(url: url)
        request.allHTTPHeaderFields = ["X-A\r\nX-B": "value"]
        let error = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(error.code == .invalidRequest)
        #expect(error.message?.hasPrefix("the header name") == true)
    }

    @Test(arguments: ["", "Bad Name", "Ä-Name", "X:Colon"])
    func namesThatAreNotTokensAreRefused(name: String) throws {
        let error = try #require(throws: HTTPTransportError.self) {
            try URLRequest.validateHeaderField(name: name, value: "x")
        }
        #expect(error.code == .invalidRequest)
        #expect(error.message == "the header name \(name.debugDescription) is not an HTTP token")
    }

    @Test(arguments: ["s3cr3t\u{1}", "s3cr3t\u{7F}", "s3cr3t\u{1B}[0m"])
    func otherControlCharactersInValuesAreRefused(value: String) throws {
        let error = try #require(throws: HTTPTransportError.self) {
            try URLRequest.validateHeaderField(name: "X-Secret", value: value)
        }
        #expect(error.code == .invalidRequest)
        #expect(error.message == #"the value of the header "X-Secret" contains a control character"#)
        #expect(!error.description.contains("s3cr3t"))
        try URLRequest.validateHeaderField(name: "X-Secret", value: "tab\tand ünïcode are fine")
    }

    @Test func singleFieldsCanBeCheckedBeforeSettingThem() throws {
        let error = try #require(throws: HTTPTransportError.self) {
            try URLRequest.validateHeaderField(name: "Authorization", value: "Bearer x\nX-Evil: 1")
        }
        #expect(error.code == .invalidRequest)
        #expect(error.message == #"the value of the header "Authorization" contains CR, LF or NUL"#)
        try URLRequest.validateHeaderField(name: "Authorization", value: "Bearer x")
    }

    @Test func setHeaderReplacesCaseInsensitivelyAndKeepsWhatSetValueWouldDrop() throws {
        var request = URLRequest(url: try #require(URL(string: "https://example.com")))
        request.setValue("old", forHTTPHeaderField: "x-token")
        request.setHeader("X-Token", "new")
        #expect(request.allHTTPHeaderFields == ["X-Token": "new"])

        // `setValue` loses a value with CR/LF on Linux; `setHeader` keeps it, so sending refuses the request.
        request.setHeader("X-Evil", "a\r\nX-Injected: 1")
        let error = #expect(throws: HTTPTransportError.self) { try request.validate() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains("X-Evil") == true)
    }

    @Test func customContentTypesWithLineBreaksAreKeptAndRefused() throws {
        // `setValue` would drop these on Linux and send the request without the header; sending refuses it instead.
        var request = URLRequest(url: url)
        request.setValue("old", forHTTPHeaderField: "accept")
        request.httpAccept("application/json\r\nX-Injected: 1")
        #expect(request.allHTTPHeaderFields == ["Accept": "application/json\r\nX-Injected: 1"])
        #expect(throws: HTTPTransportError.self) { try request.validate() }

        request = URLRequest(url: url)
        request.httpContentType("text/plain\nX-Injected: 1")
        let error = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(error.message == #"the value of the header "Content-Type" contains CR, LF or NUL"#)
    }

    @Test(arguments: ["GET\r\nX-Injected: 1", "GET /x HTTP/1.1", "", "GÉT", "GET\0"])
    func methodsThatAreNotTokensAreRefused(method: String) throws {
        var request = URLRequest(url: url)
        request.httpMethod = method
        let error = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(error.code == .invalidRequest)
        #expect(error.message == "the method \(method.debugDescription) is not an HTTP token")
        #expect(error.request == request)
    }

    @Test(arguments: [nil, "GET", "PROPFIND", "M-SEARCH", "X_CUSTOM.1"])
    func tokenMethodsPass(method: String?) throws {
        var request = URLRequest(url: url)
        request.httpMethod = method
        try request.validate()
    }

    /// RFC 9110's `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``, in methods and header names alike.
    @Test func everyTokenCharacterPasses() throws {
        let token = "Az09!#$%&'*+-.^_`|~"
        try URLRequest.validateHeaderField(name: token, value: "x")
        var request = URLRequest(url: url)
        request.httpMethod = token
        try request.validate()
    }

    @Test func ordinaryHeadersPass() throws {
        var request = URLRequest(url: url)
        request.setValue("Bearer abc.def", forHTTPHeaderField: "Authorization")
        request.setValue("text/html, application/json;q=0.9", forHTTPHeaderField: "Accept")
        try request.validate()
    }

    @Test func aRequestWithoutURLIsRefused() throws {
        var request = URLRequest(url: url)
        request.url = nil
        let error = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(error.code == .invalidRequest)
        #expect(error.message == "the request has no URL")
        #expect(error.request == request)
    }

    /// The URL is checked first, then the method, then the headers: the first problem is the one named.
    @Test func theFirstProblemIsNamed() throws {
        var request = URLRequest(url: url)
        request.httpMethod = "GET /"
        request.allHTTPHeaderFields = ["X-Bad": "a\nb"]
        let badMethod = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(badMethod.message == #"the method "GET /" is not an HTTP token"#)

        request.url = nil
        let noURL = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(noURL.message == "the request has no URL")
    }

    @Test func aHeaderNameThatIsNotATokenIsRefusedForTheWholeRequest() throws {
        var request = URLRequest(url: url)
        request.allHTTPHeaderFields = ["Bad Name": "x", "Accept": "a"]
        let error = try #require(throws: HTTPTransportError.self) { try request.validate() }
        #expect(error.code == .invalidRequest)
        #expect(error.message == #"the header name "Bad Name" is not an HTTP token"#)
        #expect(error.request == request)
    }
}
