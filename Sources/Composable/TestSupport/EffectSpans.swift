/// Something a test store notes per effect (where it was started, the action it came from), kept
/// per run of effect ids rather than per effect: a send's effects take consecutive ids, so one
/// span covers all of them. 10,000 effects asleep at once cost one entry, not 10,000 (a
/// dictionary entry per effect was about a tenth of a suspended Lua effect's memory).
struct EffectSpans<Value> {
  private struct Span {
    var ids: Range<Int>
    var value: Value
  }

  /// Disjoint, in increasing order of ids.
  private var spans: [Span] = []

  var isEmpty: Bool { spans.isEmpty }

  /// Notes `value` for the effects with ids in `ids` not noted before (effect ids only grow: ids
  /// below the last span's end were noted already). A value `same` as the last span's, for ids
  /// right after it, lengthens that span: 10,000 sends from one line in a loop make one span.
  mutating func note(_ value: Value, for ids: Range<Int>, same: ((Value, Value) -> Bool)? = nil) {
    let start = max(ids.lowerBound, spans.last?.ids.upperBound ?? ids.lowerBound)
    guard start < ids.upperBound else { return }
    if let same, let last = spans.last, last.ids.upperBound == start, same(last.value, value) {
      spans[spans.count - 1].ids = last.ids.lowerBound..<ids.upperBound
    } else {
      spans.append(Span(ids: start..<ids.upperBound, value: value))
    }
  }

  subscript(id: Int) -> Value? {
    index(of: id).map { spans[$0].value }
  }

  /// The span holding `id`.
  private func index(of id: Int) -> Int? {
    // The last span starting at or before `id`.
    var low = 0
    var high = spans.count
    while low < high {
      let middle = (low + high) / 2
      if spans[middle].ids.lowerBound <= id { low = middle + 1 } else { high = middle }
    }
    guard low > 0, spans[low - 1].ids.contains(id) else { return nil }
    return low - 1
  }

  /// Lets go of the spans none of whose effects is still in flight, when there are many of them
  /// (checked in bulk: a send that starts no effect costs nothing; a prune costs the effects in
  /// flight times the logarithm of the spans).
  mutating func prune<Live: Collection<Int>>(inFlight live: Live) {
    guard spans.count > 2 * live.count + 64 else { return }
    var kept = [Bool](repeating: false, count: spans.count)
    for id in live {
      if let index = index(of: id) { kept[index] = true }
    }
    spans = spans.indices.filter { kept[$0] }.map { spans[$0] }
  }

  mutating func removeAll() { spans.removeAll() }
}
