import Lua

/// Reads Lua values from a stack into `Value`s: exact integers and floats, UTF-8 strings, tables
/// as arrays or records, state views as the value they show. Rejects what state cannot hold
/// (functions, userdata, threads, mixed or sparse tables, cycles) with the path in the message.
///
/// An empty table `{}` has no kind of its own: it takes the kind of the `hint` (the value already
/// in the slot it is assigned to), else it is an empty record. A sequence assigned where an
/// identified collection is becomes one (ids checked).
struct LuaValueReader {
  let L: LuaRawStack
  /// Recognises state views (light userdata) and gives their current value.
  let viewValue: (LuaRawStack, Int32) throws -> Value?
  let root: String
  /// Where the value being read goes (only used in messages, so kept apart from `path`, which
  /// stays empty, and allocation-free, for scalars).
  private let basePath: ValuePath
  private let baseComponent: PathComponent?
  private var path: ValuePath = []
  private var tablesBeingRead: [UnsafeRawPointer] = []

  init(
    L: LuaRawStack, root: String, basePath: ValuePath = [], baseComponent: PathComponent? = nil,
    viewValue: @escaping (LuaRawStack, Int32) throws -> Value?
  ) {
    self.L = L
    self.root = root
    self.basePath = basePath
    self.baseComponent = baseComponent
    self.viewValue = viewValue
  }

  private var fullPath: ValuePath { basePath + (baseComponent.map { [$0] } ?? []) + path }

  func error(_ message: String) -> ValueError { .conversion(path: describePath(fullPath, root: root), message: message) }

  /// The depth error, its path shortened (it is at least `Value.maxDepth` steps long).
  func tooDeep() -> ValueError { .conversion(path: describeLongPath(fullPath, root: root), message: Value.tooDeepMessage) }

  mutating func read(at index: Int32, hint: Value?) throws -> Value {
    switch L.type(at: index) {
    case .nil, .none: return .null
    case .boolean: return .boolean(L.boolean(at: index))
    case .number:
      if L.isInteger(at: index) { return .integer(L.integerValue(at: index)) }
      return .float(L.numberValue(at: index))
    case .string: return .string(try readString(at: index))
    case .table: return try readTable(at: L.absoluteIndex(index), hint: hint)
    case .lightUserdata, .userdata:
      if let value = try viewValue(L, index) {
        // A view's value nests as deep as it does; placed here it sits `depth - 1` levels down.
        if value.nests(deeperThan: Value.maxDepth - depth + 1) { throw tooDeep() }
        return value
      }
      throw error("userdata cannot be state")
    default:
      let typeName = L.typeName(at: index)
      throw error("a \(typeName) cannot be state")
    }
  }

  private func readString(at index: Int32) throws(ValueError) -> String {
    guard let bytes = L.stringBytes(at: index), let text = String(validating: bytes, as: UTF8.self) else {
      throw error("strings in state must be valid UTF-8")
    }
    return text
  }

  /// How many tables deep the value being read sits in the state (the outermost one counting 1).
  private var depth: Int { basePath.count + (baseComponent == nil ? 0 : 1) + path.count + 1 }

  private mutating func readTable(at table: Int32, hint: Value?) throws -> Value {
    guard depth <= Value.maxDepth else { throw tooDeep() }
    let identity = L.pointer(at: table)!
    if tablesBeingRead.contains(identity) { throw error("a table cannot contain itself (cycle)") }
    try L.reserve(4)
    tablesBeingRead.append(identity)
    defer { tablesBeingRead.removeLast() }
    return try L.withStackGuard { _ in try readEntries(ofTableAt: table, hint: hint) }
  }

  /// The entries of the table at `table` (absolute) as a record or a sequence (see `readTable`).
  private mutating func readEntries(ofTableAt table: Int32, hint: Value?) throws -> Value {

    var fields: [ValueRecord.Field] = []
    var elements: [(Int64, Value)] = []
    let hintRecord = hint?.recordValue
    // A table marked by `relua.identified` (or pushed from an identified collection) is one.
    let hint = IdentifiedMarker.isMarked(table, in: L) ? (hint?.identifiedValue.map(Value.identified) ?? .identified(IdentifiedValues())) : hint
    L.pushNil()
    while L.next(at: table) {
      // key at -2, value at -1; the key is never converted in place (that would confuse next)
      if L.type(at: -2) == .string, elements.isEmpty {
        let key = try readString(at: -2)
        path.append(.key(key))
        let value = try read(at: -1, hint: hintRecord?[key])
        path.removeLast()
        fields.append(ValueRecord.Field(key: key, value: value))
      } else if L.type(at: -2) == .number, L.isInteger(at: -2), fields.isEmpty {
        let key = L.integerValue(at: -2)
        path.append(.index(Int(truncatingIfNeeded: key &- 1)))
        let value = try read(at: -1, hint: elementHint(hint, key))
        path.removeLast()
        elements.append((key, value))
      } else {
        throw error("tables must be a sequence or have string keys")
      }
      L.pop()
    }
    if !fields.isEmpty {
      fields.sort { keyPrecedes($0.key, $1.key) }
      return .record(ValueRecord(sortedFields: fields))
    }
    if elements.isEmpty { return hint?.emptyOfSameKind ?? .record(ValueRecord()) }
    return try sequence(elements, hint: hint)
  }

  private func elementHint(_ hint: Value?, _ key: Int64) -> Value? {
    switch hint {
    case .array(let elements)?: return elements.first
    case .identified(let collection)?:
      let position = Int(truncatingIfNeeded: key &- 1)
      return position >= 0 && position < collection.count ? collection[position] : collection.elements.first
    default: return nil
    }
  }

  /// Keys `1…n` exactly, else an error; an identified collection when the hint is one.
  private func sequence(_ pairs: [(Int64, Value)], hint: Value?) throws -> Value {
    let count = pairs.count
    var slots = [Value?](repeating: nil, count: count)
    for (key, value) in pairs {
      guard key >= 1, key <= Int64(count) else { throw error("tables must be a sequence or have string keys") }
      slots[Int(key - 1)] = value
    }
    let elements = slots.map { $0! }  // keys are distinct and within 1…n, so every slot is set
    if case .identified? = hint {
      let result: Result<IdentifiedValues, ValueError> = Result { () throws(ValueError) in try IdentifiedValues(elements) }
      switch result {
      case .success(let collection): return .identified(collection)
      case .failure(.identity(let position, let message)):
        throw ValueError.conversion(path: describePath(fullPath + [.index(position)], root: root), message: message)
      case .failure(let other): throw other
      }
    }
    return .array(elements)
  }
}

extension ValueRecord {
  /// Fields already sorted by key and unique (as read from a Lua table).
  init(sortedFields: [Field]) {
    self.init()
    self.fields = sortedFields
  }
}
