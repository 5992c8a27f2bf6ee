/// The `dump` output of a value: one line per property, nested values indented; the members of a set and the pairs of
/// a dictionary sorted, and an optional's line without its value (the lines below it show it), so equal values read
/// alike whatever the order their hashes give them.
func dumped(_ value: some Any) -> String {
    var output = ""
    dump(value, to: &output)
    return dumps(in: output.split(separator: "\n")[...]).joined(separator: "\n") + "\n"
}

/// The values `dump` wrote in `lines`: each its line and the deeper lines after it, sorted in a set or dictionary.
private func dumps(in lines: ArraySlice<Substring>) -> [String] {
    var (values, rest) = ([String](), lines)
    while var line = rest.popFirst().map(String.init) {
        let depth = line.prefix { $0 == " " }.count
        let end = rest.firstIndex { $0.prefix { $0 == " " }.count <= depth } ?? rest.endIndex
        var children = dumps(in: rest[..<end])
        rest = rest[end...]
        if line.contains(/▿ (.+: )?\d+ (members?|key\/value pairs?)$/) { children.sort() }
        line.replace(/^( *▿ (?:[^ (]+: )?Optional)\(.*\)$/) { $0.output.1 }  // its value: the lines below
        values.append(([line] + children).joined(separator: "\n"))
    }
    return values
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
