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
  /// The field's key as a record searches it (`ValueRecord.Field.keyPrefix`, its length).
  let fieldPrefix: UInt64
  let fieldLength: Int

  init(field: String, key: SharedKeyDescriptor, definedAt: String) {
    self.field = field
    var bytes = field
    (fieldPrefix, fieldLength) = bytes.withUTF8 { (utf8KeyPrefix(UnsafeRawBufferPointer($0)), $0.count) }
    self.key = key
    self.definedAt = definedAt
    if case .whole = key.projection { isWholeAndWritable = !key.isReadOnly } else { isWholeAndWritable = false }
  }
}

/// The field of a feature's state that holds its one share, as a send reads it: its name and
/// the key's prefix precomputed.
struct SharedHolderField {
  let name: String
  let prefix: UInt64
  let length: Int

  /// `binding`'s field (nil: none, a placeholder that names no field).
  init(_ binding: SharedBinding?) {
    name = binding?.field ?? ""
    prefix = binding?.fieldPrefix ?? 0
    length = binding?.fieldLength ?? 0
  }

  /// What `state` (a feature's state) holds at the field; `.null` when it is not a record.
  /// Found by the key's prefix, in place: no retain of the record's fields.
  @inline(__always)
  func holder(in state: Value) -> Value {
    guard case .record(let record) = state else { return .null }
    guard let (position, found) = record.searchByPrefix(prefix, length: length) else { return record[name] }
    return found ? record.fields.withUnsafeBufferPointer { $0[position].value } : .null
  }
}
