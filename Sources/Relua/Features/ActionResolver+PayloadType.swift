extension ActionResolver {
  /// What the action at `text` (a path from the root) takes as payload; throws as `steps` does
  /// when there is no such action.
  package func payloadType(_ text: String) throws(ReluaError) -> PayloadType {
    try Self.walk(try Self.parse(text)[...], in: root, text: text)
  }
}
