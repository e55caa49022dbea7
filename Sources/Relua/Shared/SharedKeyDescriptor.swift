import Lua

/// A shared key as a script declared it (`relua.fileStorage("items.json"):element()`): which
/// store of values, and which part of the value a holder sees. A registry turns it into a share
/// (`SharedRegistry.share(for:)`); a feature's `shared = { field = key }` binds a field to it.
package struct SharedKeyDescriptor: Hashable, Sendable {
  /// `inMemory`, `fileStorage`, `appStorage`, or a kind registered from Swift.
  package let kind: String
  /// The name, path or (custom kinds) any value the script gave.
  package let argument: Value
  package let projection: SharedProjection
  /// A `SharedReader`: its holders cannot write it.
  package let isReadOnly: Bool

  /// The key alone, without its projection (what a registry keeps one share for).
  package var whole: SharedKeyDescriptor {
    SharedKeyDescriptor(kind: kind, argument: argument, projection: .whole, isReadOnly: false)
  }

  /// `fileStorage("items.json"):element()`, as a script writes it.
  package var description: String {
    var text: String
    switch (kind, argument) {
    case ("inMemory", .string(let name)), ("fileStorage", .string(let name)), ("appStorage", .string(let name)):
      text = "\(kind)(\(quoteLuaString(name, elision: .standard)))"
    default:
      text = "sharedKey(\(quoteLuaString(kind, elision: .standard)), \(argument))"
    }
    switch projection {
    case .whole: break
    case .element: text += ":element()"
    case .field(let keys): text += ":field(\(quoteLuaString(keys.joined(separator: "."), elision: .standard)))"
    }
    if isReadOnly { text += ":readOnly()" }
    return text
  }

  package init(kind: String, argument: Value, projection: SharedProjection, isReadOnly: Bool) {
    self.kind = kind
    self.argument = argument
    self.projection = projection
    self.isReadOnly = isReadOnly
  }

  /// Reads a key table made by `relua.inMemory` and its kin (the prelude checked its shape).
  @MainActor
  package init(table: LuaTable, host: ReluaHost) throws {
    guard let kind = try table.rawGet("kind").stringValue else {
      throw ReluaError.usage("expected a shared key (relua.inMemory, relua.fileStorage, relua.appStorage or relua.sharedKey)")
    }
    self.kind = kind
    argument = try host.value(from: table.rawGet("argument"))
    switch try table.rawGet("projection").stringValue {
    case "element"?: projection = .element
    case "field"?:
      let path = try table.rawGet("path").stringValue ?? ""
      let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      // As deep as state may nest, no deeper (each step is a level a write walks down).
      guard keys.count < Value.maxDepth else {
        throw ReluaError.usage("key:field: a path of \(keys.count) fields; state nests at most \(Value.maxDepth) tables deep")
      }
      projection = .field(keys)
    default: projection = .whole
    }
    isReadOnly = try table.rawGet("readOnly").boolValue ?? false
  }
}

/// Which part of a shared value a holder holds.
package enum SharedProjection: Hashable, Sendable {
  /// All of it.
  case whole
  /// The element of a shared identified collection whose `id` is the holder's own `id` (TCA's
  /// `$items[id:]`): a detail screen holding one row of a shared list.
  case element
  /// A field of a shared record, by keys (`settings.theme`).
  case field([String])
}
