/// A field of a feature's state bound to a shared key: `shared = { items = Items }` in
/// `relua.feature`. Every instance of the feature, wherever it is in the tree, holds the share's
/// value (or its projection) at that field.
package struct SharedBinding: Sendable {
  /// The field of the feature's state (a record) that holds the shared value.
  package let field: String
  package let key: SharedKeyDescriptor
  /// Where the feature declared it (`Scripts/Features/Records.lua:40`).
  package let definedAt: String
  /// Whether it holds the whole shared value, writable (the commonest binding, synced without
  /// projecting: tested once here, not per send).
  let isWholeAndWritable: Bool

  init(field: String, key: SharedKeyDescriptor, definedAt: String) {
    self.field = field
    self.key = key
    self.definedAt = definedAt
    if case .whole = key.projection { isWholeAndWritable = !key.isReadOnly } else { isWholeAndWritable = false }
  }
}
