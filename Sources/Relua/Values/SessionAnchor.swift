/// Where the state of a reducer call (a views session) sits in the whole state of the open
/// transaction: what the transaction's undo log needs to keep the call's writes.
package enum SessionAnchor {
  /// The session's state is the whole state (the store's own feature): no path to keep, nothing
  /// retained.
  case wholeState
  /// At this path from the whole state.
  case path(ValuePath)
  /// Nowhere the transaction can reach (e.g. a derived value, written back through another
  /// session): the writes are not kept.
  case none

  /// The anchor of an optional path (nil: `.none`).
  init(_ path: ValuePath?) {
    if let path { self = .path(path) } else { self = .none }
  }

  /// The path from the whole state (empty for the whole state), or nil for `.none`.
  var path: ValuePath? {
    switch self {
    case .wholeState: return []
    case .path(let path): return path
    case .none: return nil
    }
  }
}
