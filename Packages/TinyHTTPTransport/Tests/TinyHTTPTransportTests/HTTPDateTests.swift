import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// HTTP dates (`Expires`, `Retry-After`, `Date`): the IMF-fixdate servers send is read without a `DateFormatter`
/// (HTTPURLResponse+Dates.swift `fixdate(_:)`, about 65 times faster), any other text by the formatter as before.
@Suite(.timeLimit(.minutes(1))) struct HTTPDateTests {
    /// The time from 1 Jan 1970 to the date in `Expires`, as `duration(untilDateIn:)` reads it.
    func since1970(_ expires: String) throws -> Duration? {
        let fields = ["Date": "Thu, 01 Jan 1970 00:00:00 GMT", "Expires": expires]
        let response = HTTPURLResponse(url: testURL, statusCode: 200, httpVersion: nil, headerFields: fields)
        return try #require(response).duration(untilDateIn: "Expires")
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777), ("Thu, 29 Feb 2024 23:59:59 GMT", 1_709_251_199),
        ("Wed, 01 Mar 2000 12:00:00 GMT", 951_912_000), ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
    ])
    func anIMFFixdateIsReadToTheSecond(text: String, seconds: Int64) throws {
        #expect(try since1970(text) == .seconds(seconds))
    }

    /// A day a month does not have, an hour past 23, a weekday or zone that is none, a letter for a digit.
    @Test(arguments: [
        "Wed, 29 Feb 2023 00:00:00 GMT", "Sat, 28 Nov 2026 24:00:00 GMT", "Xyz, 28 Nov 2026 07:00:00 GMT",
        "Sat, 28 Nov 2026 07:00:00 UTC", "Sat, 28 Nov 2026 07:00:0x GMT",
    ])
    func textThatIsNoDateIsNone(text: String) throws {
        #expect(try since1970(text) == nil)
    }

    /// Every third day of a leap year, each at another time of day, written as `Date` would be and read twice: as it
    /// is (the IMF-fixdate the formatter is now skipped for) and in capitals (`SAT, 06 JAN`, which only the formatter
    /// reads). Both are the instant written.
    @Test func theFixdateIsReadAsTheFormatterReadsIt() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for day in stride(from: 0, to: 366, by: 3) {
            let seconds = Int64(1_704_067_200 + day * 86_400 + day * 233)  // from Mon, 01 Jan 2024 00:00:00 GMT
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(try since1970(text) == .seconds(seconds), "\(text)")
            #expect(try since1970(text.uppercased()) == .seconds(seconds), "\(text.uppercased())")
        }
    }
}
