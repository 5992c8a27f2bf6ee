/// The `dump` output of a value: one line per property, nested values indented; the members of a set and the pairs of
/// a dictionary sorted (unless `sorting` is `false`), and an optional's line without its value (the lines below it
/// show it), so equal values read alike whatever the order their hashes give them.
func dumped(_ value: some Any, sorting: Bool = true) -> String {
    var output = ""
    dump(value, to: &output)
    guard sorting else { return output }
    // Each value `dump` wrote, with its depth: its line, and the lines of a description that spans several (written
    // without indentation).
    var values: [(depth: Int, text: String)] = []
    for line in output.split(separator: "\n") {
        let depth = line.prefix { $0 == " " }.count
        if values.isEmpty || ["- ", "▿ ", "▹ ", "* "].contains(line.dropFirst(depth).prefix(2)) {
            values.append((depth, String(line)))
        } else {
            values[values.count - 1].text += "\n" + line
        }
    }
    // Where the lines below each value end: at the next value no deeper.
    var (ends, open) = ([Int](repeating: values.count, count: values.count), [Int]())
    for (index, value) in values.enumerated() {
        while let last = open.last, values[last].depth >= value.depth {
            ends[last] = index
            open.removeLast()
        }
        open.append(index)
    }
    /// The lines of the values in `range`, those below a set or a dictionary sorted as blocks.
    func shown(_ range: Range<Int>) -> [String] {
        var (lines, index) = ([String](), range.lowerBound)
        while index < range.upperBound {
            let line = values[index].text
            lines.append(withoutOptionalValue(line))
            guard isUnordered(line) else {
                index += 1
                continue
            }
            var members: [String] = []
            for member in sequence(first: index + 1, next: { ends[$0] }).prefix(while: { $0 < ends[index] }) {
                members.append(shown(member..<ends[member]).joined(separator: "\n"))
            }
            lines += members.sorted()
            index = ends[index]
        }
        return lines
    }
    return shown(0..<values.count).joined(separator: "\n") + "\n"
}

/// Whether `line` is a set's or a dictionary's: `▿ tags: 3 members`, `▿ 1 key/value pair`.
private func isUnordered(_ line: String) -> Bool {
    guard let unit = [" members", " member", " key/value pairs", " key/value pair"].first(where: line.hasSuffix) else {
        return false
    }
    let count = line.dropLast(unit.count)
    let head = count.dropLast(count.reversed().prefix { $0.isASCII && $0.isNumber }.count)
    return head.count < count.count && (head.hasSuffix("▿ ") || head.hasSuffix(": ") && head.contains("▿ "))
}

/// `line` without an optional's value (`▿ picked: Optional(Set([…]))` as `▿ picked: Optional`).
private func withoutOptionalValue(_ line: String) -> String {
    guard line.hasSuffix(")"), let value = line.firstRange(of: "Optional(") else { return line }
    let head = line[..<value.lowerBound].drop { $0 == " " }  // `▿ `, or `▿ label: `
    let label = head.dropFirst(2).dropLast(2)
    guard head.hasPrefix("▿ "), head.count == 2 || head.hasSuffix(": ") && !label.contains(where: " (".contains)
    else { return line }
    return String(line[..<value.upperBound].dropLast())
}

/// A line diff of the ``dumped(_:)`` outputs of two values: common lines start with two spaces, lines only in
/// `expected` with `−`, lines only in `actual` with `+`.
func lineDiff(expected: some Any, actual: some Any) -> String {
    var dumps = (dumped(expected), dumped(actual))
    // Unequal values that read alike sorted differ in an order that counts (an `OrderedDictionary`'s): as dumped.
    if dumps.0 == dumps.1 { dumps = (dumped(expected, sorting: false), dumped(actual, sorting: false)) }
    let (old, new) = (dumps.0.split(separator: "\n"), dumps.1.split(separator: "\n"))
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
