/// The `dump` output of a value: one line per property, nested values indented.
func dumped(_ value: some Any) -> String {
    var output = ""
    dump(value, to: &output)
    return output
}

/// A line diff of the ``dumped(_:)`` outputs of two values: common lines start with two spaces, lines only in
/// `expected` with `−`, lines only in `actual` with `+`.
func lineDiff(expected: some Any, actual: some Any) -> String {
    let (old, new) = (dumped(expected).split(separator: "\n"), dumped(actual).split(separator: "\n"))
    let difference = new.difference(from: old)
    let removed = Set(difference.compactMap { if case .remove(let offset, _, _) = $0 { offset } else { nil } })
    let inserted = Set(difference.compactMap { if case .insert(let offset, _, _) = $0 { offset } else { nil } })
    var (lines, i, j) = (["(Expected: −, Actual: +)"], 0, 0)
    while i < old.count || j < new.count {  // removed lines first, then inserted ones, then a common one
        let (remove, insert) = (removed.contains(i), !removed.contains(i) && inserted.contains(j))
        lines.append(remove ? "− \(old[i])" : insert ? "+ \(new[j])" : "  \(new[j])")
        if !insert { i += 1 }
        if !remove { j += 1 }
    }
    return lines.joined(separator: "\n")
}
