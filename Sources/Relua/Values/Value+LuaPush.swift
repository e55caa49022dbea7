import Lua

extension Value: LuaPushable {
  /// Pushes the value as plain Lua: nil, booleans, integers, floats, strings and fresh tables
  /// (arrays and identified collections as sequences, records with string keys). An identified
  /// collection's table carries the `IdentifiedMarker` metatable, so it reads back as one.
  public func push(onto stack: LuaStack) throws { try push(onto: stack.raw) }

  /// Pushes onto the raw stack (one slot). Only allocating, non-raising calls are used.
  package func push(onto L: LuaRawStack) throws(LuaError) {
    switch self {
    case .null: L.pushNil()
    case .boolean(let value): L.push(boolean: value)
    case .integer(let value): L.push(integer: value)
    case .float(let value): L.push(number: value)
    case .string(let value): L.push(string: value)
    case .array(let elements): try pushSequence(elements, onto: L)
    case .identified(let collection):
      try pushSequence(collection.elements, onto: L)
      IdentifiedMarker.mark(tableAtTopOf: L)
    case .record(let record):
      try L.reserve(3)
      L.createTable(recordCount: Int32(clamping: record.count))
      for field in record.fields {
        L.push(string: field.key)
        try field.value.push(onto: L)
        L.rawSet(at: -3)
      }
    }
  }
}

private func pushSequence(_ elements: [Value], onto L: LuaRawStack) throws(LuaError) {
  try L.reserve(3)
  L.createTable(arrayCount: Int32(clamping: elements.count))
  var position: Int64 = 1
  for element in elements {
    try element.push(onto: L)
    L.rawSet(at: -2, position)
    position += 1
  }
}
