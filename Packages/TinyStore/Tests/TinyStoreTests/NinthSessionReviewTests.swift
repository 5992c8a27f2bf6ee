import Foundation
import Testing

@testable import TinyStoreTesting

/// A tag whose description spans two lines, as `dump` writes it: the second line without indentation.
private struct TwoLineTag: Hashable, CustomStringConvertible {
    var name: String
    var description: String { "tag\n\(name)" }
}

/// Pairs in an order that matters, mirrored as a dictionary (as swift-collections' `OrderedDictionary` is).
private struct OrderedPairs: Equatable, CustomReflectable {
    var pairs: [(key: String, value: Int)]
    var customMirror: Mirror { Mirror(self, unlabeledChildren: pairs, displayStyle: .dictionary) }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.pairs.elementsEqual(rhs.pairs) { $0 == $1 } }
}

/// A row of a big state.
private struct Row { var id: Int, title: String, done: Bool? }

/// A state nested `depth` levels deep.
private indirect enum Chain {
    case end
    case next(Chain)
}

/// What the review of the ninth session found in the failure diff's sorting of sets and dictionaries (Diff.swift).
@Suite(.timeLimit(.minutes(1))) struct NinthSessionReviewTests {
    /// The lines marked `−` or `+` in `diff`.
    private func marked(_ diff: String) -> [Substring] {
        diff.split(separator: "\n").filter { $0.hasPrefix("− ") || $0.hasPrefix("+ ") }
    }

    /// `dumped(_:)` parsed every line with two regular expressions and copied each line once per level above it: a
    /// failing assertion on a state of 20,000 rows took 17 s per value dumped (the `dump` itself 0.15 s), one nested
    /// 2,000 levels deep minutes, so a test store's failure message hung the test. It now costs a few times the dump.
    @Test func dumpingABigStateCostsAFewTimesItsDump() {
        let rows = (0..<5_000).map { Row(id: $0, title: "row \($0)", done: $0 % 2 == 0 ? nil : true) }
        let deep = (0..<300).reduce(Chain.end) { chain, _ in .next(chain) }
        for value in [rows, deep] as [Any] {
            let clock = ContinuousClock()
            var text = ""
            let plain = clock.measure { dump(value, to: &text) }
            let sorted = clock.measure { text = dumped(value) }
            #expect(sorted < plain * 10 + .milliseconds(50), "dump \(plain), dumped \(sorted)")
        }
    }

    /// A set of values whose description spans lines (`dump` writes the lines after the first without indentation)
    /// was sorted only up to the first such line: two equal sets listed their elements as removed and added.
    @Test func equalSetsOfMultiLineValuesDoNotShowAsADifference() throws {
        let tags = (1...8).map { TwoLineTag(name: "n\($0)") }
        var roomy = Set<TwoLineTag>(minimumCapacity: 256)
        roomy.formUnion(tags)
        try #require(roomy == Set(tags) && Array(roomy) != Array(Set(tags)))  // equal, in another order
        let diff = lineDiff(expected: (count: 2, tags: roomy), actual: (count: 1, tags: Set(tags)))
        #expect(marked(diff) == ["−   - count: 2", "+   - count: 1"], "\(diff)")
    }

    /// Values that differ only in the order of a dictionary-like value whose order counts (an `OrderedDictionary`,
    /// mirrored as a dictionary) showed a diff with no line marked, the order being sorted away: the failure said
    /// the state did not match and showed nothing wrong. Then the diff is of the values as dumped.
    @Test func aDifferenceInOrderOnlyIsStillShown() {
        let expected = OrderedPairs(pairs: [("a", 1), ("b", 2)])
        let actual = OrderedPairs(pairs: [("b", 2), ("a", 1)])
        #expect(expected != actual)
        #expect(!marked(lineDiff(expected: expected, actual: actual)).isEmpty)
    }
}
