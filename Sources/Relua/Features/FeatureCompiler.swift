import Lua

/// Turns the tables made by `relua.feature` into `FeatureDefinition`s, once per table, checking
/// what the Lua declarations could not check alone (handlers that match no action).
@MainActor
final class FeatureCompiler {
  private var byTable: [UnsafeRawPointer: FeatureDefinition] = [:]
  /// Features whose compilation has begun and not ended: a recursive reference (a function
  /// returning the feature, in optional, forEach, presents or stack) gets the definition being
  /// made, whose children are filled in when it ends.
  private var inProgress: [UnsafeRawPointer: FeatureDefinition] = [:]
  private let tags: ReluaTags
  private unowned let host: ReluaHost
  /// The reducer of a registered Swift feature, by name (see `ReluaSwiftFeature`).
  private let swiftReducer: (String) -> AnyFeatureReducer?

  init(host: ReluaHost, tags: ReluaTags, swiftReducer: @escaping (String) -> AnyFeatureReducer? = { _ in nil }) {
    self.host = host
    self.tags = tags
    self.swiftReducer = swiftReducer
  }

  func definition(of value: LuaValue, what: String) throws -> FeatureDefinition {
    guard let table = value.tableValue, try tags.isFeature(table) else {
      throw ReluaError.usage("\(what): expected a feature (made by relua.feature), got \(value.type)")
    }
    let identity = try table.identity()
    if let done = byTable[identity] { return done }
    return try compile(table, identity: identity, compiling: [])
  }

  private func compile(
    _ table: LuaTable, identity: UnsafeRawPointer, compiling: [String], byReference: Bool = false
  ) throws -> FeatureDefinition {
    if let done = byTable[identity] { return done }
    let name = try table.rawGet("name").stringValue ?? "?"
    if let partial = inProgress[identity] {
      guard byReference else {
        throw ReluaError.usage("feature '\(name)' contains itself (\((compiling + [name]).joined(separator: " → "))): a feature can contain itself only where the child can be absent, through a function returning it (relua.optional(\"child\", function() return \(name) end))")
      }
      return partial
    }
    var actions: [String: PayloadType] = [:]
    var actionGroups: Set<String> = []
    if let declared = try table.rawGet("actions").tableValue {
      try addActions(declared, prefix: "", feature: name, into: &actions, groups: &actionGroups)
    }
    let bindable = try (table.rawGet("bindable").tableValue?.array() ?? []).compactMap(\.stringValue)
    let own = try ownReducer(try table.rawGet("reduce"))
    let definition = FeatureDefinition(
      name: name, table: table, actions: actions, children: [], bindable: bindable, own: own,
      viewFunction: try table.rawGet("view").functionValue, definedAt: try table.rawGet("definedAt").stringValue ?? name)
    if let swift = try table.rawGet("swift").stringValue { definition.swiftReducer = swiftReducer(swift) }
    definition.actionGroups = actionGroups
    definition.isStateOnly = try table.rawGet("stateOnly").boolValue == true
    definition.sharedBindings = try sharedBindings(table, feature: name, definedAt: definition.definedAt)
    definition.task = try table.rawGet("task").stringValue
    inProgress[identity] = definition
    defer { inProgress[identity] = nil }
    var children: [FeatureChild] = []
    var steps: [FeatureStep] = []
    var reducers: [(FeatureOwnReducer, String)] = [(own, definition.definedAt)]
    var onChangeCount = 0
    if let compose = try table.rawGet("compose").tableValue {
      for entry in try compose.array() {
        guard let entry = entry.tableValue else { continue }
        let definedAt = try entry.rawGet("definedAt").stringValue ?? definition.definedAt
        switch try entry.rawGet("kind").stringValue {
        case "own":
          steps.append(.own)
        case "reduce":
          let reducer = try ownReducer(try entry.rawGet("reduce"))
          reducers.append((reducer, definedAt))
          steps.append(.reduce(reducer))
        case "onChange":
          steps.append(.onChange(try onChange(entry, index: onChangeCount, definedAt: definedAt)))
          onChangeCount += 1
        default:
          steps.append(.child(children.count))
          children.append(try child(entry, compiling: compiling + [name]))
        }
      }
    }
    if !steps.contains(where: { if case .own = $0 { true } else { false } }) {
      // By default the own reducer runs right after the last child.
      let lastChild = steps.lastIndex { if case .child = $0 { true } else { false } }
      steps.insert(.own, at: lastChild.map { $0 + 1 } ?? 0)
    }
    definition.children = children
    definition.steps = steps
    for (reducer, definedAt) in reducers {
      for pattern in reducer.handlers.keys.sorted() where !ActionResolver.patternExists(pattern, in: definition) {
        throw ReluaError.usage(
          "\(definedAt): feature '\(name)': the handler '\(pattern)' matches no action; '\(name)' accepts: \(definition.acceptedActions)")
      }
    }
    byTable[identity] = definition
    return definition
  }

  /// The `shared = { field = key }` of a feature, fields sorted (the prelude checked the keys).
  private func sharedBindings(_ table: LuaTable, feature: String, definedAt: String) throws -> [SharedBinding] {
    guard let shared = try table.rawGet("shared").tableValue else { return [] }
    var bindings: [SharedBinding] = []
    for (field, key) in try shared.pairs() {
      guard let field = field.stringValue, let key = key.tableValue else { continue }
      bindings.append(SharedBinding(
        field: field, key: try SharedKeyDescriptor(table: key, host: host),
        definedAt: try key.rawGet("definedAt").stringValue ?? definedAt))
    }
    return bindings.sorted { $0.field < $1.field }
  }

  /// A `reduce` field or a `relua.reduce` entry: `relua.on` handlers or a plain function.
  private func ownReducer(_ value: LuaValue) throws -> FeatureOwnReducer {
    var handlers: [String: FeatureHandler] = [:]
    if case .table(let on) = value {
      for (key, handler) in try on.pairs() {
        if let key = key.stringValue, let handler = handler.functionValue { handlers[key] = try FeatureHandler(handler) }
      }
    }
    return FeatureOwnReducer(handlers: handlers, reduceFunction: value.functionValue)
  }

  private func onChange(_ entry: LuaTable, index: Int, definedAt: String) throws -> FeatureOnChange {
    let watched: FeatureOnChange.Watched
    switch try entry.rawGet("of") {
    case .string(let path):
      let text = path.description
      do {
        _ = try ActionResolver.parseStatePath(text)
      } catch {
        throw ReluaError.usage("\(definedAt): relua.onChange: \(error.description)")
      }
      watched = .path(text)
    case .function(let projection):
      watched = .projection(projection)
    default:
      throw ReluaError.usage("\(definedAt): relua.onChange: expected a state path or a function(state)")
    }
    guard let handler = try entry.rawGet("handler").functionValue else {
      throw ReluaError.usage("\(definedAt): relua.onChange: expected a handler function")
    }
    return FeatureOnChange(watched: watched, handler: handler, definedAt: definedAt, index: index)
  }

  /// A feature's `actions`, a group's (`relua.group { … }`, a table `{ group = actions }`) by
  /// their dotted path: `delegate = relua.group { startMeeting = {} }` is the action
  /// `delegate.startMeeting`. (The prelude checked them: a non-empty table is a group.)
  private func addActions(
    _ declared: LuaTable, prefix: String, feature: String, into actions: inout [String: PayloadType], groups: inout Set<String>
  ) throws {
    for (key, payload) in try declared.pairs() {
      guard let actionName = key.stringValue else { continue }
      if let group = try payload.tableValue?.rawGet("group").tableValue {
        groups.insert(prefix + actionName)
        try addActions(group, prefix: prefix + actionName + ".", feature: feature, into: &actions, groups: &groups)
      } else {
        actions[prefix + actionName] = try payloadType(payload, feature: feature, action: prefix + actionName)
      }
    }
  }

  private func payloadType(_ value: LuaValue, feature: String, action: String) throws -> PayloadType {
    if case .table = value { return .none }
    guard let text = value.stringValue, let type = PayloadType(declaration: text) else {
      throw ReluaError.usage("feature '\(feature)': action '\(action)' has a bad payload type")
    }
    return type
  }

  private func child(_ entry: LuaTable, compiling: [String]) throws -> FeatureChild {
    let key = try entry.rawGet("key").stringValue ?? "?"
    let definedAt = try entry.rawGet("definedAt").stringValue ?? key
    let target = try entry.rawGet("target")
    func feature(_ value: LuaValue) throws -> FeatureDefinition {
      // A function is a reference to a feature (one that may contain the feature being compiled).
      var value = value
      let byReference = value.functionValue != nil
      if let reference = value.functionValue { value = try reference.call().first ?? .nil }
      guard let table = value.tableValue, try tags.isFeature(table) else {
        throw ReluaError.usage("\(definedAt): '\(key)' needs a feature, got \(value.type)")
      }
      return try compile(table, identity: try table.identity(), compiling: compiling, byReference: byReference)
    }
    func destination(_ value: LuaValue, name: String) throws -> FeatureChild.Destination {
      guard let table = value.tableValue, try tags.isAlert(table) else { return .feature(try feature(value)) }
      var actions: [String: PayloadType] = [:]
      for (action, payload) in try table.rawGet("actions").tableValue?.pairs() ?? [] {
        guard let action = action.stringValue else { continue }
        actions[action] = try payloadType(payload, feature: "alert '\(name)'", action: action)
      }
      let style: FeatureChild.AlertStyle = try table.rawGet("style").stringValue == "confirmationDialog" ? .confirmationDialog : .alert
      return .alert(actions: actions, style: style)
    }
    func destinations() throws -> [String: FeatureChild.Destination] {
      var kinds: [String: FeatureChild.Destination] = [:]
      for (name, value) in try target.tableValue?.pairs() ?? [] {
        guard let name = name.stringValue else { continue }
        kinds[name] = try destination(value, name: name)
      }
      return kinds
    }
    let kind: FeatureChild.Kind
    switch try entry.rawGet("kind").stringValue {
    case "scope":
      if let get = try entry.rawGet("get").functionValue, let set = try entry.rawGet("set").functionValue {
        kind = .lens(try feature(target), get: get, set: set)
      } else {
        kind = .scope(try feature(target))
      }
    case "optional": kind = .optional(try feature(target))
    case "forEach": kind = .forEach(try feature(target))
    case "presents":
      if try entry.rawGet("single").boolValue == true {
        let presented = try destination(target, name: key)
        switch presented {
        case .feature(let feature) where feature.actions["dismiss"] != nil:
          throw ReluaError.usage("\(definedAt): '\(key)' presents \(feature.name), which has an action 'dismiss': '\(key).dismiss' dismisses it; rename that action")
        case .alert(let actions, let style) where actions["dismiss"] != nil:
          throw ReluaError.usage("\(definedAt): the \(style.rawValue) '\(key)' has a button action 'dismiss': '\(key).dismiss' dismisses it; rename that action")
        default:
          kind = .presented(presented)
        }
      } else {
        kind = .presents(try destinations())
      }
    case "stack": kind = .stack(try destinations())
    default: throw ReluaError.usage("\(definedAt): unknown composition")
    }
    return FeatureChild(key: key, kind: kind, definedAt: definedAt)
  }
}
