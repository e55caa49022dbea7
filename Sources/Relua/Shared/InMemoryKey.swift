/// `relua.inMemory(name)`: a value shared by the stores of one runtime (one Lua state) and
/// stored nowhere; each test store starts with its own, empty.
package struct InMemoryKey: ReluaSharedKey {
  package let name: String

  package var id: String { "inMemory:" + name }
  package var description: String { "inMemory(\(quoteLuaString(name, elision: .standard)))" }
  package func load() throws -> Value? { nil }
  package func save(_ value: Value) throws {}
}
