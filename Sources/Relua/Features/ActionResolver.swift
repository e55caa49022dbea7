import Lua

/// Reads the actions scripts send (`"counter.setCount"`, `"rows[id=42].onAppear"`,
/// `'destination.alert.confirm'`) into `FeatureAction`s, checked against what the feature tree
/// declares: an unknown name or a payload of the wrong type is an error naming the feature and
/// what it accepts. Parsed paths are cached (a send of a known name costs one dictionary lookup).
@MainActor
package final class ActionResolver {
  typealias Resolved = (steps: ArraySlice<FeatureAction.Step>, payload: PayloadType)
  let root: FeatureDefinition
  private var cache: [String: Resolved] = [:]
  /// For sends from Lua: a Lua table (in the registry, at `luaCacheReference`) from the action's
  /// Lua string to its position in `luaResolved`, so a send of a known name costs one `lua_rawget`
  /// (Lua strings carry their hash) and makes no Swift string. The resolver lives as long as its
  /// host, which lives as long as the Lua state, so the reference is never released.
  @exclusivity(unchecked) private var luaCacheReference: Int32 = LuaRawStack.noReference
  @exclusivity(unchecked) private var luaResolved: [Resolved] = []
  private static let cacheLimit = 10_000  // ids make paths unbounded; keep the caches small
  /// The last name sent from Lua, by the address of its Lua string, and its position in
  /// `luaResolved` (a loop, typing, a timer's ticks repeat one action: no table lookup then).
  /// Only short strings, which Lua interns: the one at this address is the key the cache table
  /// holds, so it stays alive, and no other string can take its address, until the table is replaced.
  @exclusivity(unchecked) private var lastLuaName: UnsafePointer<CChar>?
  @exclusivity(unchecked) private var lastPosition = 0
  /// The last name's action (no payload) and whether it takes no payload, kept beside its
  /// position: the common resend (no payload, none expected) is answered from these two fields,
  /// without indexing `luaResolved` (bounds checks, the tuple's payload type) or checking a payload.
  /// `store:send` lends `lastAction` to the store for the send (see `lendingLastAction`).
  @exclusivity(unchecked) var lastAction = FeatureAction(steps: [], payload: .null)
  @exclusivity(unchecked) private var lastTakesNoPayload = false
  /// How many sends have `lastAction` on loan (sends nest: a handler may send). While it is lent,
  /// `lastAction` is not replaced (that would free the steps the running send reads): a name
  /// resolved meanwhile is just not remembered.
  @exclusivity(unchecked) var lendingLastAction = 0
  /// The last name's Lua string as an object (`lua_topointer`), set with `lastLuaName`: a value
  /// at this address can only be that string, so `isRepeatedAction` needs neither `lua_type` nor
  /// `lua_tolstring` to recognise it.
  @exclusivity(unchecked) private var lastLuaString: UnsafeRawPointer?
  private static let shortStringLimit = 40  // LUAI_MAXSHORTLEN

  init(root: FeatureDefinition) { self.root = root }

  /// Whether the value at `index` of `L` is the last name resolved from Lua and it takes no
  /// payload (a loop, typing, a timer's ticks): then `lastAction` is its action; otherwise
  /// `resolve(luaStringAt:in:payload:)` decides, with its messages. For sends without a payload.
  @inline(__always)
  func isRepeatedAction(at index: Int32, in L: LuaRawStack) -> Bool {
    guard lastTakesNoPayload, let last = lastLuaString else { return false }
    return L.pointer(at: index) == last
  }

  /// Resolves the action named by the Lua string at `index` of `L` (see `resolve(_:payload:)`).
  func resolve(luaStringAt index: Int32, in L: LuaRawStack, payload: consuming Value) throws -> FeatureAction {
    var length = 0
    let name = L.cString(at: index, length: &length)
    if name == lastLuaName {
      return try resolved(at: lastPosition, payload: payload, name, length)
    }
    try L.reserve(3)
    if luaCacheReference != LuaRawStack.noReference {
      L.pushRegistryValue(Int64(luaCacheReference))
      L.pushCopy(of: index)
      let found = L.rawGet(at: -2) == .number
      let position = Int(L.integerValue(at: -1))
      L.pop(2)
      if found {
        if length <= Self.shortStringLimit && lendingLastAction == 0 {
          lastLuaName = name
          lastPosition = position
          lastAction = FeatureAction(steps: luaResolved[position].steps, payload: .null)
          lastTakesNoPayload = luaResolved[position].payload.isNone
          lastLuaString = L.pointer(at: index)
        }
        return try resolved(at: position, payload: payload, name, length)
      }
    }
    let text = Self.text(name, length)
    let action = try resolve(text, payload: payload)
    // Only names that resolve are cached (the payload is checked on each hit).
    if luaCacheReference == LuaRawStack.noReference || luaResolved.count >= Self.cacheLimit {
      L.createTable(recordCount: 8)
      if luaCacheReference == LuaRawStack.noReference {
        luaCacheReference = L.makeReference()
      } else {
        L.setRegistryValue(Int64(luaCacheReference))
      }
      luaResolved.removeAll()
      lastLuaName = nil
      lastLuaString = nil
      if lendingLastAction == 0 { lastAction = FeatureAction(steps: [], payload: .null) }
    }
    L.pushRegistryValue(Int64(luaCacheReference))
    L.pushCopy(of: index)
    L.push(integer: Int64(luaResolved.count))
    L.rawSet(at: -3)
    L.pop()
    luaResolved.append((action.steps, cache[text]!.payload))
    return action
  }

  /// The cached resolution at `position` with `payload`, checked against what the action takes.
  @inline(__always)
  private func resolved(
    at position: Int, payload: consuming Value, _ name: UnsafePointer<CChar>?, _ length: Int
  ) throws -> FeatureAction {
    // The common case first (an action without payload, sent without one), then the full check;
    // its message names the action as it was sent, as on the first send.
    if !(payload.isNull && luaResolved[position].payload.isNone) {
      try check(payload, against: luaResolved[position].payload, Self.text(name, length))
    }
    return FeatureAction(steps: luaResolved[position].steps, payload: payload)
  }

  /// The Lua string's bytes as text (action names are checked as names after this).
  private static func text(_ name: UnsafePointer<CChar>?, _ length: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
  }

  func resolve(_ text: String, payload: Value) throws(ReluaError) -> FeatureAction {
    if let hit = cache[text] {
      try check(payload, against: hit.payload, text)
      return FeatureAction(steps: hit.steps, payload: payload)
    }
    let steps = try Self.parse(text)
    let expected = try Self.walk(steps[...], in: root, text: text)
    if cache.count > Self.cacheLimit { cache.removeAll() }
    cache[text] = (steps[...], expected)
    try check(payload, against: expected, text)
    return FeatureAction(steps: steps[...], payload: payload)
  }

  /// The action's steps, checked, without looking at a payload (for matching by name).
  package func steps(_ text: String) throws(ReluaError) -> ArraySlice<FeatureAction.Step> {
    if let hit = cache[text] { return hit.steps }
    let steps = try Self.parse(text)
    let expected = try Self.walk(steps[...], in: root, text: text)
    cache[text] = (steps[...], expected)
    return steps[...]
  }

  /// `text` (how the action was sent) is made only for the message.
  private func check(_ payload: Value, against expected: PayloadType, _ text: @autoclosure () -> String) throws(ReluaError) {
    if let problem = expected.mismatch(payload) {
      throw .badAction("action '\(text())' of \(root.name): \(problem)")
    }
  }

  // MARK: Parsing

  /// One step of a path as written: a name, or a bracket — `[id=LITERAL]` (the element with this
  /// id) or `[LITERAL]` (the n-th element, or a key in quotes).
  package enum PathToken {
    case name(String)
    case bracket(Value, byID: Bool)
  }

  /// `rows[id=42].toggle`, `destination.counter.increment` into steps. An action reaches an element
  /// of a forEach or a stack by its id, as TCA's `.element(id:action:)` does; `[n]` would be the
  /// n-th element (what it means in a state path), so it is refused with the right spelling.
  package nonisolated static func parse(_ text: String) throws(ReluaError) -> [FeatureAction.Step] {
    var steps: [FeatureAction.Step] = []
    for token in try tokens(text, kind: "action") {
      switch token {
      case .name(let name): steps.append(.name(name))
      case .bracket(let id, byID: true): steps.append(.id(id))
      case .bracket(let literal, byID: false):
        throw .badAction(
          "cannot read the action '\(text)': [\(literal.luaLiteral())] would be an element by its position; "
            + "an action names the element by its id: [id=\(literal.luaLiteral())]")
      }
    }
    return steps
  }

  /// A state path (`:state rows[2].name`, `store:state("rows[id=42]")`): names are fields,
  /// `[n]` the n-th element (1-based, as in Lua), `[id=LITERAL]` the element with that id,
  /// `["odd key"]` a field whose name is not a Lua name.
  nonisolated static func parseStatePath(_ text: String) throws(ReluaError) -> ValuePath {
    var path: ValuePath = []
    for token in try tokens(text, kind: "state path") {
      switch token {
      case .name(let name): path.append(.key(name))
      case .bracket(let id, byID: true): path.append(.id(id))
      case .bracket(.integer(let position), byID: false):
        // Positions start at 1; 0 or less is nothing, as `t[0]` is nil in Lua.
        path.append(.index(position >= 1 ? Int(clamping: position) - 1 : -1))
      case .bracket(.string(let key), byID: false): path.append(.key(key))
      case .bracket(let literal, byID: false):
        throw .badAction("cannot read the state path '\(text)': [\(literal.luaLiteral())] is neither a position nor a field (an element by its id: [id=\(literal.luaLiteral())])")
      }
    }
    return path
  }

  /// `a.b[id=1].c["x"]` into tokens. Literals are Lua's: integers, floats, quoted strings, booleans.
  /// `kind` names what the text is in messages (an action, or a state path).
  package nonisolated static func tokens(_ text: String, kind: String) throws(ReluaError) -> [PathToken] {
    var tokens: [PathToken] = []
    let bytes = Array(text.utf8)
    var position = 0
    func fail(_ why: String) -> ReluaError { .badAction("cannot read the \(kind) '\(text)': \(why)") }
    func skipSpaces() { while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 } }
    while position < bytes.count {
      let start = position
      while position < bytes.count, bytes[position] != UInt8(ascii: "."), bytes[position] != UInt8(ascii: "[") {
        position += 1
      }
      let name = String(decoding: bytes[start..<position], as: UTF8.self)
      guard isLuaIdentifier(name) else { throw fail(name.isEmpty ? "a name is missing" : "'\(name)' is not a name") }
      tokens.append(.name(name))
      while position < bytes.count, bytes[position] == UInt8(ascii: "[") {
        position += 1
        skipSpaces()
        // `id=` (spaces allowed around `=`) marks an element by its id.
        var byID = false
        if bytes[position...].starts(with: "id".utf8) {
          var after = position + 2
          while after < bytes.count, bytes[after] == UInt8(ascii: " ") { after += 1 }
          if after < bytes.count, bytes[after] == UInt8(ascii: "=") {
            byID = true
            position = after + 1
            skipSpaces()
          }
        }
        let (literal, end) = try parseLiteral(bytes, from: position, fail)
        position = end
        skipSpaces()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "]") else { throw fail("']' expected") }
        position += 1
        tokens.append(.bracket(literal, byID: byID))
      }
      if position < bytes.count {
        guard bytes[position] == UInt8(ascii: ".") else { throw fail("'.' expected") }
        position += 1
        if position == bytes.count { throw fail("it ends with '.'") }
      }
    }
    if tokens.isEmpty { throw fail("it is empty") }
    return tokens
  }

  nonisolated private static func parseLiteral(
    _ bytes: [UInt8], from start: Int, _ fail: (String) -> ReluaError
  ) throws(ReluaError) -> (Value, Int) {
    guard start < bytes.count else { throw fail("an id is missing") }
    let quote = bytes[start]
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
      var text: [UInt8] = []
      var position = start + 1
      while position < bytes.count, bytes[position] != quote {
        if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count { position += 1 }
        text.append(bytes[position])
        position += 1
      }
      guard position < bytes.count else { throw fail("unfinished string id") }
      return (.string(String(decoding: text, as: UTF8.self)), position + 1)
    }
    var position = start
    while position < bytes.count, bytes[position] != UInt8(ascii: "]"), bytes[position] != UInt8(ascii: " ") { position += 1 }
    let literal = String(decoding: bytes[start..<position], as: UTF8.self)
    if let integer = Int64(literal) { return (.integer(integer), position) }
    if literal == "math.mininteger" { return (.integer(.min), position) }  // (as `luaLiteral` writes it)
    if literal == "math.maxinteger" { return (.integer(.max), position) }
    if let float = Double(literal), literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
      return (.float(float), position)
    }
    if literal == "true" { return (.boolean(true), position) }
    if literal == "false" { return (.boolean(false), position) }
    throw fail("'\(literal)' is not a Lua literal (quote strings: [id=\"abc\"])")
  }

  // MARK: Checking against the declarations

  /// Walks `steps` down the feature tree; returns the payload type the action expects.
  static func walk(
    _ steps: ArraySlice<FeatureAction.Step>, in feature: FeatureDefinition, text: String
  ) throws(ReluaError) -> PayloadType {
    guard let first = steps.first, case .name(let name) = first else {
      throw .badAction("'\(text)': \(feature.name) expects an action name here; it accepts: \(feature.acceptedActions)")
    }
    let rest = steps.dropFirst()
    if let payload = feature.actions[name] {
      guard rest.isEmpty else { throw .badAction("'\(text)': '\(name)' is an action of \(feature.name), not a child") }
      return payload
    }
    if feature.actionGroups.contains(name) { return try walkGroup(name, rest, in: feature, text: text) }
    if name == "binding", !feature.bindable.isEmpty {
      guard !rest.isEmpty, case .name(let field)? = rest.first, feature.bindable.contains(field) else {
        throw .badAction(
          "'\(text)': \(feature.name) binds only \(feature.bindable.sorted().map { "binding.\($0)" }.joined(separator: ", "))")
      }
      if rest.count > 1 { try checkNestedBinding(rest, of: feature, text: text) }
      return .any
    }
    guard let child = feature.child(name) else {
      throw .badAction("\(feature.name) has no action '\(name)' (in '\(text)'); it accepts: \(feature.acceptedActions)")
    }
    func needsMore() -> ReluaError {
      .badAction("'\(text)': '\(name)' is a child of \(feature.name) (\(child.kindName)); send one of its actions: \(child.acceptedPrefix)")
    }
    // The child's own actions: dismiss, popFrom (an id), push (`{ id = n, <kind> = state }`,
    // checked against the kinds by `StackPush`).
    if rest.count == 1, case .name(let action)? = rest.first,
      let control = child.controlActions.first(where: { $0.name == action })
    {
      return control.payload
    }
    // Then the element's id (a collection), the kind (a child that selects one), the destination's actions.
    let inElement = child.storage == .elements
    var below = rest
    if inElement {
      var kindFollows = false
      if case .name? = below.dropFirst().first { kindFollows = true }
      guard case .id? = below.first, !child.selectsKind || kindFollows else {
        let controls = child.controlActions.map { "\(name).\($0.name)" }.joined(separator: " or ")
        let pattern = child.actionPrefix(id: "ID", kind: child.selectsKind ? "<kind>" : nil) + "action"
        throw .badAction(
          "'\(text)': '\(name)' is a \(child.kindName) of \(feature.name): write \(pattern)\(controls.isEmpty ? "" : ", " + controls)")
      }
      below = below.dropFirst()
    }
    guard child.selectsKind else {
      guard !below.isEmpty else { throw needsMore() }
      return try walkDestination(child.onlyDestination!, below, text: text, place: name)
    }
    guard case .name(let kind)? = below.first else { throw needsMore() }
    guard let destination = child.destinationsByKind[kind] else {
      let kinds = child.destinationsByKind.keys.sorted().joined(separator: ", ")
      if inElement { throw .badAction("'\(text)': the stack '\(name)' holds \(kinds), not '\(kind)'") }
      throw .badAction("'\(text)': '\(name)' presents \(kinds) (or dismiss), not '\(kind)'")
    }
    let place = String(child.actionPrefix(id: inElement ? "ID" : nil, kind: kind).dropLast())
    return try walkDestination(destination, below.dropFirst(), text: text, place: place)
  }

  private static func walkDestination(
    _ destination: FeatureChild.Destination, _ steps: ArraySlice<FeatureAction.Step>, text: String, place: String
  ) throws(ReluaError) -> PayloadType {
    switch destination {
    case .feature(let definition):
      if definition.isStateOnly { throw stateOnlyRefusal(definition, text: text, remaining: steps.count) }
      guard !steps.isEmpty else { throw .badAction("'\(text)': send one of \(place)'s actions: \(definition.acceptedActions)") }
      return try walk(steps, in: definition, text: text)
    case .alert(let actions, let style):
      guard steps.count == 1, case .name(let action)? = steps.first, let payload = actions[action] else {
        throw .badAction("'\(text)': the \(style.rawValue) \(place) has the button actions: \(destination.acceptedActions)")
      }
      return payload
    }
  }

  /// Whether a handler key (`counter.playNext`, `rows.onAppear`, `destination.dismiss`) names an
  /// action of `feature`'s tree (ids left out).
  static func patternExists(_ pattern: String, in feature: FeatureDefinition) -> Bool {
    let names = pattern.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    return patternExists(names[...], in: feature)
  }

  private static func patternExists(_ names: ArraySlice<String>, in feature: FeatureDefinition) -> Bool {
    guard let name = names.first else { return false }
    let rest = names.dropFirst()
    if feature.actions[name] != nil { return rest.isEmpty }
    if feature.actionGroups.contains(name) { return feature.actions[names.joined(separator: ".")] != nil }
    if name == "binding" { return !rest.isEmpty && feature.bindable.contains(rest.first!) }
    guard let child = feature.child(name) else { return false }
    if rest.count == 1, let action = rest.first {
      // (A child that selects a kind takes any of the navigation actions here.)
      if child.controlActions.contains(where: { $0.name == action }) { return true }
      if child.selectsKind && (action == "dismiss" || action == "popFrom" || action == "push") { return true }
    }
    var below = rest
    var kind: String? = nil
    if child.selectsKind {
      guard let name = below.first else { return false }
      kind = name
      below = below.dropFirst()
    }
    switch child.destination(kind: kind) {
    case .feature(let definition)?: return patternExists(below, in: definition)
    case .alert(let actions, _)?: return below.count == 1 && actions[below.first!] != nil
    case nil: return false
    }
  }
}

extension String {
  var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}
