import Foundation
import Lua
import Relua

/// `json`: bytes as JSON text for state (`Value(json:)`). What parses must write back (compact
/// and pretty) and parse again to the same value; through Lua (`relua.fromJSON` then
/// `relua.toJSON`) it must come back the same but for empty containers (Lua's `{}` has no kind).
@MainActor
final class JSONTarget: FuzzTarget {
  private let lua: LuaState
  private let throughLua: LuaFunction

  init() {
    do {
      // One state for every input: the chunk below only converts, it keeps nothing between inputs.
      lua = try LuaState(options: LuaOptions(memoryLimit: 32 << 20, instructionLimit: 200_000))
      try ReluaHost.install(in: lua)
      throughLua = try lua.load(
        """
        local text = ...
        local ok, value = pcall(relua.fromJSON, text)
        if not ok then return nil end
        local written
        ok, written = pcall(relua.toJSON, value)
        if ok then return written end
        return nil, written
        """, name: "=json-through-lua")
    } catch {
      fatalError("relua-fuzz json: cannot set up Lua: \(error)")
    }
  }

  func run(_ input: UnsafeRawBufferPointer) {
    guard let text = inputText(input) else { return }
    let value: Value
    do { value = try Value(json: text) } catch { return }

    for pretty in [false, true] {
      let written: String
      do { written = try value.json(pretty: pretty) } catch {
        invariantFailed("JSON that parsed does not write back (pretty: \(pretty)): \(error)\ninput: \(text.debugDescription)")
      }
      let reparsed: Value
      do { reparsed = try Value(json: written) } catch {
        invariantFailed("written JSON does not parse (pretty: \(pretty)): \(error)\nwritten: \(written.debugDescription)\ninput: \(text.debugDescription)")
      }
      if reparsed != value {
        invariantFailed("JSON round trip changed the value (pretty: \(pretty))\nbefore: \(value)\nafter: \(reparsed)\nwritten: \(written.debugDescription)")
      }
    }
    // Conforming to a template: exercised, not checked (a heterogeneous array is not its own template).
    _ = try? value.conformed(to: value)
    _ = try? Value(json: text, hint: value)

    // Through Lua.
    lua.resetInstructionBudget()
    guard let results = try? lua.call(throughLua, .text(text)), let written = results.first?.stringValue else { return }
    let back: Value
    do { back = try Value(json: written) } catch {
      invariantFailed("relua.toJSON wrote JSON that does not parse: \(error)\nwritten: \(written.debugDescription)")
    }
    if emptiesAsRecords(back) != emptiesAsRecords(value) {
      invariantFailed("relua.fromJSON/toJSON changed the value\nbefore: \(value)\nafter: \(back)")
    }
  }
}

/// `value` with every empty array or identified collection an empty record (as Lua's `{}` reads).
func emptiesAsRecords(_ value: Value) -> Value {
  switch value {
  case .array(let elements): return elements.isEmpty ? .record(ValueRecord()) : .array(elements.map(emptiesAsRecords))
  case .identified(let collection):
    return collection.isEmpty ? .record(ValueRecord()) : .array(collection.elements.map(emptiesAsRecords))
  case .record(let record):
    return .record(ValueRecord(record.fields.map { ($0.key, emptiesAsRecords($0.value)) }))
  default: return value
  }
}
