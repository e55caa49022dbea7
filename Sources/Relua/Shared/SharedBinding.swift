/// A field of a feature's state bound to a shared key: `shared = { items = Items }` in
/// `relua.feature`. Every instance of the feature, wherever it is in the tree, holds the share's
/// value (or its projection) at that field.
package struct SharedBinding: Sendable {
  /// The field of the feature's state (a record) that holds the shared value.
  package let field: String
  package let key: SharedKeyDescriptor
  /// Where the feature declared it (`Scripts/Features/Records.lua:40`).
  package let definedAt: String
}
