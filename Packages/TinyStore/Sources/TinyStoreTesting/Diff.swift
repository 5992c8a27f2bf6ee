/// The `dump` output of a value: one line per property, nested values indented.
func dumped(_ value: some Any) -> String {
    var output = ""
    dump(value, to: &output)
    return output
}

/// A line diff of two texts: common lines start with two spaces, lines only in `expected` with `−`, lines only in
/// `actual` with `+`.
func lineDiff(expected: String, actual: String) -> String {
    let old = expected.split(separator: "\n").map(String.init)
    let new = actual.split(separator: "\n").map(String.init)
    var (removed, inserted) = (Set<Int>(), Set<Int>())
    for change in new.difference(from: old) {
        switch change {
        case .remove(let offset, _, _): removed.insert(offset)
        case .insert(let offset, _, _): inserted.insert(offset)
        }
    }
    var (lines, i, j) = (["(Expected: −, Actual: +)"], 0, 0)
    while i < old.count || j < new.count {  // removed lines first, then inserted ones, then a common one
        let (remove, insert) = (removed.contains(i), !removed.contains(i) && inserted.contains(j))
        lines.append(remove ? "− " + old[i] : insert ? "+ " + new[j] : "  " + new[j])
        if !insert { i += 1 }
        if !remove { j += 1 }
    }
    return lines.joined(separator: "\n")
}
