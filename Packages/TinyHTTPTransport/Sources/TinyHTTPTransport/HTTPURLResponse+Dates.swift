import Foundation

extension HTTPURLResponse {
    /// The time from this response's `Date` (else `now`) to the HTTP date in header `field` (`Retry-After`,
    /// `Expires`); `nil` when the header is missing or not an HTTP date. Never negative.
    @_spi(TinyKit) public func duration(untilDateIn field: String, now: Date = Date()) -> Duration? {
        guard let date = httpDate(in: field) else { return nil }
        return .seconds(min(max(date.timeIntervalSince(httpDate(in: "Date") ?? now), 0), 1e15))
    }

    /// The date in header `field`, an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form HTTP dates are sent in.
    private func httpDate(in field: String) -> Date? {
        guard let text = value(forHTTPHeaderField: field) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
