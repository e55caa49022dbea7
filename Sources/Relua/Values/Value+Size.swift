/// What a value costs in memory, roughly: what the memory limit charges for state the host holds
/// (a `Value` lives in Swift memory, outside Lua's allocator). An estimate from the shapes of the
/// containers — enum payloads, array and record storage, string bytes, an identified collection's
/// index — not a measurement; shared copy-on-write storage is counted once per place it appears.
extension Value {
  /// Bytes of one value slot (an enum payload) inside a container.
  static let slotBytes = 16
  /// Bytes of a container's heap header (object header, count, capacity).
  static let containerBytes = 32

  var estimatedBytes: Int {
    switch self {
    case .null, .boolean, .integer, .float: return 0
    case .string(let text): return text.utf8.count > 15 ? Self.containerBytes + text.utf8.count : 0
    case .array(let elements):
      return elements.reduce(Self.containerBytes + elements.count * Self.slotBytes) { $0 + $1.estimatedBytes }
    case .identified(let collection):
      // The elements, and the index from id to position (a hashed id and an Int each).
      return collection.elements.reduce(2 * Self.containerBytes + collection.count * (Self.slotBytes + 32)) { $0 + $1.estimatedBytes }
    case .record(let record):
      return record.fields.reduce(Self.containerBytes + record.fields.count * (Self.slotBytes + 24)) { total, field in
        total + field.value.estimatedBytes + (field.key.utf8.count > 15 ? field.key.utf8.count : 0)
      }
    }
  }
}
