import Foundation

extension HTTPURLResponse {
    /// The time from this response's `Date` (else `now`) to the HTTP date in header `field` (`Retry-After`,
    /// `Expires`); `nil` when the header is missing or not an HTTP date. Never negative.
    @_spi(TinyKit) public func duration(untilDateIn field: String, now: Date = Date()) -> Duration? {
        guard let date = httpDate(in: field, now: now) else { return nil }
        return .seconds(min(max(date.timeIntervalSince(httpDate(in: "Date", now: now) ?? now), 0), 1e15))
    }

    /// The date in header `field`: an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form HTTP dates are sent
    /// in, or one of the two obsolete forms recipients must read too (RFC 9110 §5.6.7): RFC 850's
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime's (`Sun Nov  6 08:49:37 1994`), a two-digit year within 50
    /// years of `now`.
    private func httpDate(in field: String, now: Date) -> Date? {
        guard let value = value(forHTTPHeaderField: field) else { return nil }
        let text = value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if let date = Self.fixdate(text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        // A two-digit year is within 50 years of now (RFC 9110 §5.6.7).
        formatter.twoDigitStartDate = now.addingTimeInterval(-50 * 365.25 * 86_400)
        // IMF, RFC 850, and asctime with its day space-padded (`Nov  6`) or zero-padded (`Nov 06`), both valid.
        let forms = [
            "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy",
            "EEE MMM dd HH:mm:ss yyyy",
        ]
        return forms.lazy.compactMap { form in
            formatter.dateFormat = form
            // An obsolete form exactly, not what the lenient formatter makes of a year of another length or a missing
            // `GMT`; the IMF form without its zeros too (`Thu, 1 Jan 2026 8:49:37 GMT`), but with its four-digit
            // year and its `GMT`. The weekday is not checked in any form (as curl and Go do not).
            let date = formatter.date(from: text)
            let words = text.split(separator: " ")
            let imf = words.count == 6 && words[3].count == 4 && words[5] == "GMT"
            let exact = date.map(formatter.string)?.drop { $0 != " " } == text.drop { $0 != " " }
            return (form == forms[0] ? imf : exact) ? date : nil
        }.first
    }

    /// An IMF-fixdate exactly as servers send it (`Sun, 06 Nov 1994 08:49:37 GMT`) and a valid date, read without a
    /// `DateFormatter`: making and setting up one costs about 1.2 ms on Linux, and `StatefulEndpoint` reads `Expires`
    /// at every load. `nil` for any other text, which ``httpDate(in:now:)`` leaves to its formatter.
    private static func fixdate(_ text: String) -> Date? {
        // Not a `Regex`: one made at each call costs about 250 µs. In `form`, `0` is a digit, a lower-case letter any
        // byte (the names, checked below), anything else itself.
        let (bytes, form) = (Array(text.utf8), Array("www, 00 mmm 0000 00:00:00 GMT".utf8))
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard bytes.count == form.count,
            zip(bytes, form).allSatisfy({ $1 == UInt8(ascii: "0") ? digits.contains($0) : $1 > 0x60 || $0 == $1 })
        else { return nil }
        func word(_ at: Int) -> String { String(decoding: bytes[at..<at + 3], as: UTF8.self) }
        func number(_ at: Int, _ count: Int = 2) -> Int {
            bytes[at..<at + count].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].contains(word(0)),
            let month = months.firstIndex(of: word(8))
        else { return nil }
        let components = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: .gmt, year: number(12, 4), month: month + 1,
            day: number(5), hour: number(17), minute: number(20), second: number(23))
        return components.isValidDate ? components.date : nil
    }
}
