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
}
