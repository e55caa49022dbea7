import Relua

/// A line diff of two texts in the style of relua's (and TCA's) test failures: `−` lines are the
/// old text's, `+` lines the new one's, unchanged lines indented by two; long runs of unchanged
/// lines far from a change are summed up (`… (12 unchanged lines)`).
package enum TextLineDiff {
  /// Unchanged lines shown before and after each change.
  package static let context = 3

  /// The diff from `old` to `new`, nil when they are equal.
  package static func lines(from old: String, to new: String) -> String? {
    guard old != new else { return nil }
    let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let edits = self.edits(a, b)
    // Which unchanged lines are near a change.
    var near = [Bool](repeating: false, count: edits.count)
    for (index, edit) in edits.enumerated() where edit.marker != " " {
      for other in max(0, index - context)...min(edits.count - 1, index + context) { near[other] = true }
    }
    var output: [String] = []
    var skipped = 0
    func flushSkipped() {
      if skipped > 0 { output.append("  … (\(skipped) unchanged line\(skipped == 1 ? "" : "s"))") }
      skipped = 0
    }
    for (index, edit) in edits.enumerated() {
      if edit.marker == " " && !near[index] {
        skipped += 1
        continue
      }
      flushSkipped()
      output.append("\(edit.marker) \(edit.line)")
    }
    flushSkipped()
    return output.joined(separator: "\n")
  }

  private struct Edit {
    var marker: Character
    var line: String
  }

  /// The longest common subsequence's edit script, removals before additions at each change.
  private static func edits(_ a: [String], _ b: [String]) -> [Edit] {
    // Common head and tail first: a screen usually changes in a few lines.
    var head = 0
    while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
    var tail = 0
    while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
    let middleA = Array(a[head..<(a.count - tail)]), middleB = Array(b[head..<(b.count - tail)])
    var result = a[..<head].map { Edit(marker: " ", line: $0) }
    let n = middleA.count, m = middleB.count
    if n * m > 4_000_000 {
      // Too big to align: all of the old, then all of the new.
      result += middleA.map { Edit(marker: ValueDiff.removedMarker, line: $0) }
      result += middleB.map { Edit(marker: ValueDiff.addedMarker, line: $0) }
    } else {
      var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
      for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
          lengths[i][j] = middleA[i] == middleB[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
        }
      }
      var i = 0, j = 0
      while i < n || j < m {
        if i < n, j < m, middleA[i] == middleB[j] {
          result.append(Edit(marker: " ", line: middleA[i]))
          i += 1
          j += 1
        } else if j == m || (i < n && lengths[i + 1][j] >= lengths[i][j + 1]) {
          result.append(Edit(marker: ValueDiff.removedMarker, line: middleA[i]))
          i += 1
        } else {
          result.append(Edit(marker: ValueDiff.addedMarker, line: middleB[j]))
          j += 1
        }
      }
    }
    result += a[(a.count - tail)...].map { Edit(marker: " ", line: $0) }
    return result
  }
}
