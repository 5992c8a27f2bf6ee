import Foundation

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Where an assertion was written, so a failure points at the test's line.
struct CallSite: Sendable {
    var fileID, filePath: StaticString
    var line, column: UInt
}

/// Reports a test failure: as a Swift Testing issue inside a Swift Testing test, otherwise through `XCTFail`
/// (and on standard error where XCTest is not available).
func reportFailure(_ message: String, at site: CallSite) {
    #if canImport(Testing)
        if Test.current != nil {
            let location = SourceLocation(
                fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column))
            Issue.record(Comment(rawValue: message), sourceLocation: location)
            return
        }
    #endif
    #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
    #else
        FileHandle.standardError.write(Data("\(site.filePath):\(site.line): error: \(message)\n".utf8))
    #endif
}
