extension Value {
  /// Whether both are the same value in O(1): equal scalars, or containers sharing their storage
  /// (a copy of a value is identical to it until one of them is written). False says nothing:
  /// equal values built apart are not identical. What shared-state syncing checks first.
  package func isIdentical(to other: Value) -> Bool {
    switch (self, other) {
    case (.array(let a), .array(let b)): return sameStorage(a, b)
    case (.record(let a), .record(let b)): return sameStorage(a.fields, b.fields)
    case (.identified(let a), .identified(let b)): return sameStorage(a.elements, b.elements)
    case (.string(let a), .string(let b)): return a == b
    case (.array, _), (.record, _), (.identified, _), (.string, _): return false
    default: return self == other
    }
  }
}

private func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
  guard a.count == b.count else { return false }
  if a.isEmpty { return true }
  return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
}
