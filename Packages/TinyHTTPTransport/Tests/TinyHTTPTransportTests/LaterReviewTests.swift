import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// Review of 30deee4..a4d9fbf: what those fixes got wrong, regression tests now (open ones: `withKnownIssue`).
@Suite(.timeLimit(.minutes(1))) struct LaterReviewTests {
    /// A response sent on 26 Nov 2026 whose `Retry-After` (or `Expires`) is `date`.
    func response(retryAfter date: String) throws -> HTTPURLResponse {
        let headers = ["Date": "Thu, 26 Nov 2026 00:00:00 GMT", "Retry-After": date]
        return try #require(HTTPURLResponse(url: testURL, statusCode: 503, httpVersion: nil, headerFields: headers))
    }

    /// HTTPURLResponse+Dates.swift `httpDate(in:)`: `yy` reads a two-digit year in `DateFormatter`'s fixed window,
    /// 1950–2049, where RFC 9110 §5.6.7 asks for a sliding one (a year more than 50 years ahead is in the past): on
    /// 26 Nov 2026, `-55` is 2055, 29 years ahead, but is read as 1955, so the wait is zero (an immediate retry, an
    /// `Expires` already past). From 2050 on, every RFC 850 date of the current year is read a century early.
    @Test func anRFC850TwoDigitYearLessThanFiftyYearsAheadIsInTheFuture() throws {
        let response = try response(retryAfter: "Friday, 01-Jan-55 00:00:00 GMT")
        let wait = try #require(response.duration(untilDateIn: "Retry-After"))
        #expect(wait > Duration.seconds(28 * 365 * 86_400))
    }

    /// HTTPURLResponse+Dates.swift `httpDate(in:)`: the obsolete forms are matched as loosely as `DateFormatter`
    /// parses: RFC 850's `yy` takes a one- or three-digit year literally (year 5, year 123), asctime's `yyyy` a
    /// two-digit one (year 94), and RFC 850's trailing `GMT` may be missing. None is an HTTP-date: each should be
    /// ignored (`Retry-After` then falls back to the backoff), yet each reads as a date long past: wait zero.
    @Test(arguments: [
        "Sunday, 06-Nov-5 08:49:37 GMT", "Sunday, 06-Nov-123 08:49:37 GMT", "Sun Nov  6 08:49:37 94",
        "Sunday, 06-Nov-94 08:49:37",
    ])
    func aMalformedObsoleteDateIsNotADate(date: String) throws {
        let response = try response(retryAfter: date)
        #expect(response.duration(untilDateIn: "Retry-After") == nil)
    }
}
