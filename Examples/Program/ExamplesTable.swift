import Foundation

/// One row of the examples table.
public struct ExampleRow: Sendable, Equatable {
    public var combination: String
    public var did: String
    public var result: String
    public var succeeded: Bool
    /// How long the example took, in milliseconds.
    public var milliseconds: Double

    public init(combination: String, did: String, result: String, succeeded: Bool, milliseconds: Double) {
        self.combination = combination
        self.did = did
        self.result = result
        self.succeeded = succeeded
        self.milliseconds = milliseconds
    }
}

/// Renders rows as a plain-text table.
enum ExamplesTable {
    static func render(_ rows: [ExampleRow]) -> String {
        let header = ["combination", "did", "result", "time"]
        let cells = rows.map { row in
            [
                row.combination, row.did, (row.succeeded ? "" : "FAILED: ") + row.result,
                String(format: "%.1f ms", row.milliseconds),
            ]
        }
        let widths = header.indices.map { column in
            ([header] + cells).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                return column == cells.count - 1 ? padding + cells[column] : cells[column] + padding
            }
            .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + cells.map(line)).joined(separator: "\n")
    }
}
