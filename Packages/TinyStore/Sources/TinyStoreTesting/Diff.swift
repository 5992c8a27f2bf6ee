/// The `dump` output of a value: one line per property, nested values indented.
func dumped(_ value: some Any) -> String {
    var output = ""
    dump(value, to: &output)
    return output
}

/// A line diff of two texts: common lines start with two spaces, lines only in `expected` with `−`, lines only in
/// `actual` with `+`.
func lineDiff(expected: String, actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
    var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in old.indices.reversed() {
        for j in new.indices.reversed() {
            lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
        }
    }
    var lines: [String] = []
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
        if i < old.count, j < new.count, old[i] == new[j] {
            lines.append("  " + old[i])
            i += 1
            j += 1
        } else if i < old.count, j == new.count || lengths[i + 1][j] >= lengths[i][j + 1] {
            lines.append("− " + old[i])
            i += 1
        } else {
            lines.append("+ " + new[j])
            j += 1
        }
    }
    while lines.last?.trimmingWhitespace.isEmpty == true { lines.removeLast() }
    return "(Expected: −, Actual: +)\n" + lines.joined(separator: "\n")
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        drop { $0.isWhitespace }
    }
}
