import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// Review of a4d9fbf..47178ec: what those fixes got wrong, regression tests now (open ones: `withKnownIssue`).
@Suite(.timeLimit(.minutes(1))) struct LatestReviewTests {
    /// A `503` whose headers are `headers`.
    func response(_ headers: [String: String]) throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: testURL, statusCode: 503, httpVersion: nil, headerFields: headers))
    }

    /// HTTPURLResponse+Dates.swift `httpDate(in:)`: the round-trip check refuses IMF dates read before this change
    /// that differ from TinyKit's own output only in zero padding: a one-digit day or hour (RFC 5322 allows both;
    /// RFC 9110 §5.6.7 encourages robust parsing). `Retry-After` then falls back to the backoff, `Expires` is stale.
    @Test(arguments: ["Thu, 1 Jan 2026 08:49:37 GMT", "Thu, 01 Jan 2026 8:49:37 GMT"])
    func anIMFDateWithoutZeroPaddingIsStillADate(date: String) throws {
        let response = try response(["Date": "Wed, 31 Dec 2025 08:49:37 GMT", "Retry-After": date])
        #expect(response.duration(untilDateIn: "Retry-After") == .seconds(86_400))
    }

    /// HTTPURLResponse+Dates.swift `httpDate(in:)`: the two-digit-year window is 50 years around the wall clock
    /// (`Date()`), not around the `now` the caller passes, so the result for an RFC 850 date depends on the day the
    /// code runs. With `now` on 6 Nov 1994 and no `Date`, `06-Nov-50` is more than 50 years ahead, hence 1950 (RFC
    /// 9110 §5.6.7): no wait. It is read as 2050 today: a wait of 56 years.
    @Test func theTwoDigitYearWindowIsAroundTheGivenNow() throws {
        let response = try response(["Retry-After": "Monday, 06-Nov-50 08:49:37 GMT"])
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(response.duration(untilDateIn: "Retry-After", now: now) == .zero)
    }
}
