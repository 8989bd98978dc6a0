import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation
import TestSupport

// Every worked example of semantics §13 (E01–E72; E22 is about WebKit internals, E49 is folded
// into E43, E61 is a compositing rule checked in rendered pixels), written the way a user would:
// build a layer, add an animation, read the presentation. The tests read as the spec's table: each
// family of examples that share a shape is one table of rows (E-number, the spec's inputs, the
// expected values) run by one driver test; rows that need a bespoke setup carry a small closure.
// A failure points at its row and names the E-number with the spec's wording. The families:
// timing (+Timing), animated values (+Values, +Keyframes, +Springs), timing functions (+Curves),
// transforms (+Transforms), geometry and transitions (+Geometry), and single readings with a setup
// of their own (+Measured). Animations are described in +Recipes. testEveryWorkedExampleHasARow
// checks the tables against §13 of the spec file.
//
// Tolerances: 1e-6 by default; 1e-5 where the spec says float math (E11, E17, E18); half a unit
// of the last printed digit where the spec prints fewer than 6 decimals (E20: 5e-6; E40, E43–E46:
// 5e-5; E43 peak: 5e-3); E42's Apple approximation: 0.15, as the spec states.

final class WorkedExamplesTests: XCTestCase {

    /// The default tolerance of a row.
    static let tolerance = 1e-6

    /// §13 examples no row here tests, with the reason.
    static let untested: [String: String] = [
        "E22": "WebKit's solve epsilon is an implementation detail of WebKit's solver, not Core Animation behaviour",
        "E49": "folded into E43 by the spec: the peak of the default spring is E43's peak row",
        "E61": "group opacity is a compositing rule: RenderingTests' GLRendererTests.testE61GroupOpacityOfOverlappingSublayers "
            + "checks it in rendered pixels",
    ]

    /// Every row of every table, for the coverage check.
    static var allRows: [ExampleRow] {
        timingExamples.map(\.row) + layerClockExamples.map(\.row) + basicValueExamples.map(\.row)
            + keyframeValueExamples.map(\.row) + springValueExamples.map(\.row) + springParameterExamples.map(\.row)
            + curveExamples.map(\.row) + transformExamples.map(\.row) + coordinateExamples.map(\.row)
            + transitionExamples.map(\.row) + drawingOrderExamples.map(\.row) + measuredExamples.map(\.row)
    }

    override func setUp() {
        super.setUp()
        Self.resetTransactions()
    }

    /// A manual media clock at 0 and no pending transaction: what every row starts from.
    static func resetTransactions() {
        CATransaction.mediaClock = ManualMediaClock()
        CATransaction.flush()
    }

    func testEveryWorkedExampleHasARow() throws {
        guard let spec = WorkedExampleSpec.section13 else {
            throw XCTSkip("no \(WorkedExampleSpec.url.path): the spec's §13 is not checked against the tables")
        }
        XCTAssertGreaterThanOrEqual(spec.rows.count, 70, "§13 table parsed from \(WorkedExampleSpec.url.path)")
        let tested = Set(Self.allRows.map(\.id))
        for id in spec.mentioned.sorted() {
            if let reason = Self.untested[id] {
                XCTAssertFalse(tested.contains(id), "\(id) is listed as untested (\(reason)) but has a row")
            } else {
                XCTAssertTrue(tested.contains(id), "\(id) of §13 has no row: \(spec.rows[id] ?? "")")
            }
        }
        for id in tested.union(Self.untested.keys).sorted() {
            XCTAssertTrue(spec.mentioned.contains(id), "\(id) has a row or a reason but §13 no longer lists it")
        }
    }
}

extension WorkedExamplesTests {
    /// What every table row carries: its E-number, the spec's words for the case it checks, and
    /// where it is written (so a failure points at the row, not the driver).
    struct ExampleRow {
        let id: String
        let note: String
        let file: StaticString
        let line: UInt

        /// `label`: the E-number, then (after a space) the spec's words for this row, if any.
        init(_ label: String, file: StaticString, line: UInt) {
            let parts = label.split(separator: " ", maxSplits: 1)
            id = parts.first.map(String.init) ?? label
            note = parts.count > 1 ? String(parts[1]) : ""
            self.file = file; self.line = line
        }

        /// "E04 (backwards: 10 / 50) t=1 — §13: 10→20, beginTime 2, … → removed: 50 / 50; …"
        func message(_ what: String) -> String {
            let head = note.isEmpty ? id : "\(id) (\(note))"
            let spec = WorkedExampleSpec.section13?.rows[id].map { " — §13: \($0)" } ?? ""
            return (what.isEmpty ? head : "\(head) \(what)") + spec
        }

        /// `actual` within `accuracy` of `expected`, or exactly equal when `accuracy` is nil.
        func check(_ actual: Double?, _ expected: Double, accuracy: Double?, _ what: String) {
            if let accuracy {
                XCTAssertEqual(actual ?? .nan, expected, accuracy: accuracy, message(what), file: file, line: line)
            } else {
                XCTAssertEqual(actual, expected, message(what), file: file, line: line)
            }
        }

        func checkEqual<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
            XCTAssertEqual(actual, expected, message(what), file: file, line: line)
        }

        func checkNil(_ actual: Any?, _ what: String) {
            XCTAssertNil(actual, message(what), file: file, line: line)
        }

        func checkTrue(_ actual: Bool, _ what: String) {
            XCTAssertTrue(actual, message(what), file: file, line: line)
        }
    }
}

/// The table of §13 in the semantics spec, read from the shared folder next to the checkout
/// (`../shared/spec/core-animation-semantics.md` from the package root).
enum WorkedExampleSpec {
    struct Section: Sendable {
        /// Each table row as "inputs → expected", by E-number.
        let rows: [String: String]
        /// Every E-number the section names, in the table or in its notes (E49).
        let mentioned: Set<String>
    }

    static let url = Repository.root.deletingLastPathComponent()
        .appendingPathComponent("shared/spec/core-animation-semantics.md")

    /// Nil when the spec file is absent (a checkout without the shared folder).
    static let section13: Section? = {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        var inSection = false
        var body: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inSection = line.hasPrefix("## 13.") }
            if inSection { body.append(line) }
        }
        var rows: [String: String] = [:]
        for line in body where line.hasPrefix("| E") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            rows[cells[1]] = "\(cells[2]) → \(cells[3..<(cells.count - 2)].joined(separator: "|"))"
        }
        let mentioned = body.joined(separator: "\n").matches(of: /E[0-9]{2}/).map { String($0.output) }
        return Section(rows: rows, mentioned: Set(mentioned))
    }()
}
