import Foundation
import Testing
import TinyHTTPTransport

/// Bugs found by reading the code, fixed: each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct ReviewFindingsGTests {
    /// `expectedStatus(200...)` is a documented spelling. A `PartialRangeFrom` has no fast `contains` as a
    /// `Sequence`, so the generic `Sequence.contains` walks it from its lower bound: a code below the bound is never
    /// found, and the walk runs until `Int` overflows and traps (for `200...` and a `199`, ~9.2 × 10¹⁸ steps: a hang).
    /// Shown in a child process with a bound near `Int.max`, so the walk traps at once instead of hanging.
    @Test func anOpenRangeRefusesACodeBelowItWithoutWalkingToIntMax() async {
        await #expect(processExitsWith: .success) {
            let accepts = expectedStatus((Int.max - 1000)...)
            precondition(!accepts(200))
        }
    }

    /// Codes at or above the bound are found.
    @Test func anOpenRangeAcceptsCodesAboveIt() {
        let accepts = expectedStatus(200...)
        #expect(accepts(200))
        #expect(accepts(503))
    }

    /// `appendingRelative` promises to percent-encode only the characters a path does not allow. `;` is allowed
    /// (RFC 3986 sub-delimiter, kept as is in `"a;b"`), but a path that needs any escaping goes through
    /// `CharacterSet.urlPathAllowed`, which lacks `;`: the same segment is sent as `a%3Bb`, which a server using
    /// `;` (matrix parameters) reads differently.
    @Test func aSemicolonIsKeptWhetherOrNotThePathNeedsEscaping() throws {
        let base = try #require(URL(string: "https://api.example.com/v1"))
        #expect(base.appendingRelative("files;v=2").absoluteString == "https://api.example.com/v1/files;v=2")
        #expect(
            base.appendingRelative("my files;v=2").absoluteString
                == "https://api.example.com/v1/my%20files;v=2")
    }
}
