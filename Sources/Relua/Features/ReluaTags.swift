import Lua

/// The metatables the Lua half of the DSL tags its tables with, to tell a feature from any table.
@MainActor
package final class ReluaTags {
  private var feature: UnsafeRawPointer?
  private var handlers: UnsafeRawPointer?
  private var child: UnsafeRawPointer?
  private var alert: UnsafeRawPointer?
  private var effect: UnsafeRawPointer?

  func register(_ metatables: [LuaValue]) throws {
    let pointers = try metatables.map { try $0.tableValue?.identity() }
    guard pointers.count == 5 else { throw ReluaError.usage("the relua prelude registered the wrong tags") }
    (feature, handlers, child, alert, effect) = (pointers[0], pointers[1], pointers[2], pointers[3], pointers[4])
  }

  private func has(_ table: LuaTable, _ tag: UnsafeRawPointer?) throws -> Bool {
    guard let tag, let metatable = try table.metatable else { return false }
    return try metatable.identity() == tag
  }

  package func isFeature(_ table: LuaTable) throws -> Bool { try has(table, feature) }
  func isAlert(_ table: LuaTable) throws -> Bool { try has(table, alert) }
  func isEffect(_ table: LuaTable) throws -> Bool { try has(table, effect) }
}
