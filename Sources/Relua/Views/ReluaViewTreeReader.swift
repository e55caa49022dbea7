import Lua

/// Reads the table a `view(state)` returned into a ``ReluaViewNode``, checking every value from
/// Lua (a hand-made table as much as one `relua.ui` built): a bad node, a tree deeper than
/// ``maxDepth`` or larger than ``maxNodes`` is an error naming the feature's view, never a crash.
///
/// Action paths come out from the store's root: the screen's prefix, then each `relua.ui.scope`'s
/// key and each keyed list's `key[id=…]`. A binding's value is read from the state the view drew.
@MainActor
struct ReluaViewTreeReader {
  /// Deeper than any screen a person reads; bounds the recursion for a cyclic or generated table.
  static let maxDepth = 64
  /// Nodes in one tree (a 10,000-row list of a few nodes each fits).
  static let maxNodes = 200_000

  let host: ReluaHost
  /// Whose view, for the errors: `Counter.view`.
  let viewName: String
  /// The screen's feature's actions: each control's action is checked as a send would check it
  /// (a button's payload too), so a misspelt action fails where the view is drawn.
  private let resolver: ActionResolver
  /// The screen's prefix, which the actions start with (`destination.results.`).
  private let screenPrefix: String
  /// The screen's feature: a `relua.ui.forEach` node draws the rows of one of its forEach children.
  private let feature: FeatureDefinition
  private var nodeCount = 0

  init(host: ReluaHost, feature: FeatureDefinition, screenPrefix: String) {
    self.host = host
    self.viewName = feature.name + ".view"
    self.resolver = host.resolver(for: feature)
    self.screenPrefix = screenPrefix
    self.feature = feature
  }

  /// The tree of the value at stack index `index` of `stack` (absolute; text or a `relua.ui` node)
  /// for a screen at `prefix` showing `state`. Read on the raw stack: a node's fields are looked up
  /// in place, no reference is taken to any table of the tree (taking one per table was most of a
  /// 1,000-row list's reading).
  mutating func read(at index: Int32, _ stack: LuaRawStack, prefix: String, state: Value) throws -> ReluaViewNode {
    try node(at: index, stack, prefix: prefix, state: state, depth: 0, owner: feature, at: { "the view" })
  }

  /// `place` is built only for an error: a tree of thousands of nodes reads without making one.
  private func fail(_ message: String, at place: () -> String) -> ReluaError {
    ReluaError.usage("\(viewName): \(place()) \(message)")
  }

  /// The text at `index`, if it is a string (a number is not text here, as in a `LuaValue`).
  private static func text(at index: Int32, _ stack: LuaRawStack) -> String? {
    guard stack.type(at: index) == .string, let bytes = stack.stringBytes(at: index) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Pushes `table[field]` (raw) and returns its type; the caller pops it.
  @inline(__always)
  private static func pushField(_ field: String, of table: Int32, _ stack: LuaRawStack) -> LuaType {
    stack.push(string: field)
    return stack.rawGet(at: table)
  }

  /// The node at stack index `index` (absolute); leaves the stack as it found it, unless it throws.
  /// `owner` is the feature whose view drew the node (the screen's, a scoped child's, a forEach
  /// element's), when known: what a `relua.ui.forEach` node's key is looked up in.
  private mutating func node(
    at index: Int32, _ stack: LuaRawStack, prefix: String, state: Value, depth: Int, owner: FeatureDefinition?,
    at place: () -> String
  ) throws -> ReluaViewNode {
    nodeCount += 1
    guard nodeCount <= Self.maxNodes else { throw fail("has more than \(Self.maxNodes) nodes", at: { "the tree" }) }
    guard depth < Self.maxDepth else { throw fail("is nested more than \(Self.maxDepth) deep", at: { "the tree" }) }
    if let text = Self.text(at: index, stack) { return .text(text) }
    guard stack.type(at: index) == .table else {
      throw fail("must be text or a relua.ui node, got \(stack.type(at: index))", at: place)
    }
    try stack.reserve(6)
    _ = Self.pushField("kind", of: index, stack)
    guard let kind = Self.text(at: -1, stack) else {
      throw fail("is a table without a kind: build nodes with relua.ui (relua.ui.text, relua.ui.vstack, …)", at: place)
    }
    stack.pop()
    func text(_ field: String) throws -> String {
      let type = Self.pushField(field, of: index, stack)
      defer { stack.pop() }
      guard let text = Self.text(at: -1, stack) else {
        throw fail("(\(kind)) needs text for \(field), got \(type)", at: place)
      }
      return text
    }
    /// The value of `field`, a Lua value as state (`.null` for nil).
    func value(_ field: String) throws -> Value {
      let type = Self.pushField(field, of: index, stack)
      defer { stack.pop() }
      return type == .nil ? .null : try host.value(from: host.lua.value(at: stack.top, in: stack.rawState))
    }
    /// Calls `body` for each element 1…#list of the table in `field`, pushed at the index it gets.
    func elements(of field: String, or message: String, _ body: (Int, Int32) throws -> Void) throws {
      guard Self.pushField(field, of: index, stack) == .table else { throw fail(message, at: place) }
      let list = stack.top
      for position in 0..<stack.rawLength(at: list) {
        _ = stack.rawGet(at: list, Int64(position + 1))
        try body(position, stack.top)
        stack.pop()
      }
      stack.pop()
    }
    func children() throws -> [ReluaViewNode] {
      var nodes: [ReluaViewNode] = []
      try elements(of: "children", or: "(\(kind)) needs a list of children") { position, child in
        nodes.append(try node(at: child, stack, prefix: prefix, state: state, depth: depth + 1, owner: owner, at: { "\(place()) › \(kind) child \(position + 1)" }))
      }
      return nodes
    }
    func action() throws -> ReluaViewAction {
      let name = try text("action")
      let action = ReluaViewAction(path: prefix + name, payload: try value("payload"))
      // Checked against the feature drawing the node, by its own name (a forEach row's `toggle`,
      // not `rows[id=500].toggle`: no path built or parsed); the screen's check below when that
      // fails, for its message.
      if let owner, Self.takes(host.resolver(for: owner), name, action.payload) { return action }
      do {
        _ = try resolver.resolve(String(action.path.dropFirst(screenPrefix.count)), payload: action.payload)
      } catch {
        throw fail("(\(kind) '\((try? text("label")) ?? "")') sends an action the feature does not take: \(error)", at: place)
      }
      return action
    }
    func binding() throws -> ReluaViewBinding {
      let path = try text("binding")
      // Fields, and elements by id (`attendees[id="a1"].name`): read as a state path is.
      guard let steps = try? ActionResolver.parseStatePath(path),
            !steps.contains(where: { if case .index = $0 { true } else { false } })
      else { throw fail("(\(kind)) has a bad binding path '\(path)'", at: place) }
      let value = steps.reduce(state) { value, step in
        if case .id(let id) = step { return LuaLeafReducer.element(id: id, in: value)?.element ?? .null }
        return value[step]
      }
      let binding = ReluaViewBinding(action: prefix + "binding." + path, value: value)
      do {
        _ = try resolver.steps(String(binding.action.dropFirst(screenPrefix.count)))
      } catch {
        throw fail("(\(kind) '\((try? text("label")) ?? "")') is bound to a field the feature cannot set: \(error)", at: place)
      }
      return binding
    }
    switch kind {
    case "text": return .text(try text("text"))
    case "vstack": return .vstack(try children())
    case "hstack": return .hstack(try children())
    case "button": return .button(label: try text("label"), action: try action())
    case "link": return .link(label: try text("label"), action: try action())
    case "textField": return .textField(label: try text("label"), binding: try binding())
    case "toggle": return .toggle(label: try text("label"), binding: try binding())
    case "stepper": return .stepper(label: try text("label"), binding: try binding())
    case "picker":
      var texts: [String] = []
      try elements(of: "options", or: "(picker) needs a list of options") { _, option in
        guard let text = Self.text(at: option, stack) else {
          throw fail("(picker) options must be texts, got \(stack.type(at: option))", at: place)
        }
        texts.append(text)
      }
      return .picker(label: try text("label"), binding: try binding(), options: texts)
    case "section": return .section(title: try text("title"), children: try children())
    case "image": return .image(url: try text("url"), alt: try text("alt"))
    case "replHint": return .replHint(try text("text"))
    case "toolbar":
      let target: String = {
        _ = Self.pushField("screen", of: index, stack)
        defer { stack.pop() }
        return Self.text(at: -1, stack).map { prefix + $0 } ?? ""
      }()
      return .toolbar(screen: target, items: try children())
    case "scope":
      let key = try text("key")
      _ = Self.pushField("content", of: index, stack)
      defer { stack.pop() }
      let scoped = owner?.children.first { $0.key == key }.flatMap { child -> FeatureDefinition? in
        if case .scope(let feature) = child.kind { feature } else { nil }
      }
      return try node(
        at: stack.top, stack, prefix: prefix + key + ".", state: state[key: key], depth: depth + 1, owner: scoped,
        at: { "\(place()) › scope \(key)" })
    case "list":
      let key: String? = try {
        _ = Self.pushField("key", of: index, stack)
        defer { stack.pop() }
        return Self.text(at: -1, stack)
      }()
      let rowOwner = key.flatMap { Self.forEachFeature(of: owner, at: $0) }
      var out: [ReluaViewRow] = []
      try elements(of: "rows", or: "(list) needs its rows") { position, row in
        guard stack.type(at: row) == .table else { throw fail("(list) row \(position + 1) must be { id, content }", at: place) }
        let id: Value = try {
          _ = Self.pushField("id", of: row, stack)
          defer { stack.pop() }
          return try host.value(from: host.lua.value(at: stack.top, in: stack.rawState))
        }()
        guard !id.isNull, !id.isContainer else { throw fail("(list) row \(position + 1) needs an id (a string or a number)", at: place) }
        var rowPrefix = prefix, rowState = state
        if let key {
          rowPrefix += key + "[id=" + id.luaLiteral() + "]."
          rowState = state[key: key][id: id]
        }
        // A row's actions are checked against its feature only under an id a send can name (an
        // integer or a string); another id leaves the whole path to the screen's check.
        let nameable: Bool
        switch id {
        case .integer, .string: nameable = true
        default: nameable = false
        }
        let checkedRowOwner = nameable ? rowOwner : nil
        _ = Self.pushField("content", of: row, stack)
        let content = try node(
          at: stack.top, stack, prefix: rowPrefix, state: rowState, depth: depth + 1, owner: checkedRowOwner,
          at: { "\(place()) › list row \(position + 1)" })
        stack.pop()
        out.append(ReluaViewRow(id: id, content: content))
      }
      return .list(out)
    case "forEach":
      let key = try text("key")
      guard let owner, let rowFeature = Self.forEachFeature(of: owner, at: key) else {
        throw fail("(forEach \"\(key)\") draws the elements of a relua.forEach(\"\(key)\", …) child, and \(owner?.name ?? "the feature drawing it") has none at \(key)", at: place)
      }
      // The same feature (or a copy, `Row:withDependencies`): the same view function.
      guard let view = rowFeature.viewFunction else {
        throw fail("(forEach \"\(key)\") draws each row with \(rowFeature.name).view, and \(rowFeature.name) has no view", at: place)
      }
      let sameFeature: Bool = try {
        guard Self.pushField("feature", of: index, stack) == .table else { stack.pop(); return false }
        _ = Self.pushField("view", of: stack.top, stack)
        try view.push(onto: stack)
        defer { stack.pop(3) }
        return stack.rawEqual(-1, -2)
      }()
      guard sameFeature else {
        throw fail("(forEach \"\(key)\") names another feature than the forEach at \(key), \(rowFeature.name)", at: place)
      }
      return try forEachRows(key: key, of: rowFeature, view: view, owner: owner, stack, prefix: prefix, state: state, depth: depth, at: place)
    default:
      throw fail("has an unknown kind '\(kind)' (text, vstack, hstack, button, link, textField, toggle, stepper, picker, list, section, image, scope, toolbar, forEach, replHint)", at: place)
    }
  }
  /// Whether `resolver`'s feature takes the action `name` with `payload`.
  @inline(never)
  private static func takes(_ resolver: ActionResolver, _ name: String, _ payload: Value) -> Bool {
    do {
      _ = try resolver.resolve(name, payload: payload)
      return true
    } catch {
      return false
    }
  }

  /// The feature of `owner`'s `relua.forEach(key, …)` child, if it has one.
  private static func forEachFeature(of owner: FeatureDefinition?, at key: String) -> FeatureDefinition? {
    guard let child = owner?.children.first(where: { $0.key == key }), case .forEach(let feature) = child.kind else { return nil }
    return feature
  }

  /// The rows of a `relua.ui.forEach` node: the elements of the collection at `key` in `state`
  /// (the Swift state, not the Lua table the view saw), each drawn by `rowFeature.view(element)` —
  /// or taken from the host's cache when its element is the one it was drawn from.
  ///
  /// When the collection has as many elements as at the last read, the positions written since
  /// come from its write log (`ElementWriteLog`), or, when the log cannot say, from comparing its
  /// elements with those the rows were drawn from bit for bit (no reference taken, no hashing):
  /// only those are looked at, and a changed row replaces its row in the last read's rows (which
  /// share the rest). Else, or when an id moved, every position is matched as below.
  private mutating func forEachRows(
    key: String, of rowFeature: FeatureDefinition, view: LuaFunction, owner: FeatureDefinition, _ stack: LuaRawStack,
    prefix: String, state: Value, depth: Int, at place: () -> String
  ) throws -> ReluaViewNode {
    let collection: IdentifiedValues
    switch state[key: key] {
    case .identified(let identified): collection = identified
    case .null: collection = IdentifiedValues()
    case let other: throw fail("(forEach \"\(key)\") needs an identified collection at \(key), got \(other.kindName)", at: place)
    }
    let elements = collection.elements
    ElementWriteLog.start()
    let cache = host.viewRowCache
    let groupKey = ReluaViewRowCache.GroupKey(owner: ObjectIdentifier(owner), place: prefix + key)
    var group = cache.take(groupKey)
    /// Draws the row of `element` at `position` with the row feature's view: the row and its nodes.
    func draw(_ element: Value, id: Value, at position: Int) throws -> (ReluaViewRow, Int) {
      let rowPrefix = prefix + key + "[id=" + id.luaLiteral() + "]."
      let before = nodeCount
      let content = try host.lua.callRaw(
        view, argumentCount: 1, pushArguments: { L in try element.push(onto: LuaRawStack(L)) }
      ) { L, first, count in
        guard count >= 1 else {
          throw fail("(forEach \"\(key)\") \(rowFeature.name).view returned nothing for row \(position + 1)", at: place)
        }
        return try node(
          at: first, LuaRawStack(L), prefix: rowPrefix, state: element, depth: depth + 1, owner: rowFeature,
          at: { "\(place()) › forEach \(key) row \(position + 1)" })
      }
      var row = ReluaViewRow(id: id, content: content)
      row.revision = cache.nextRevision()
      return (row, nodeCount - before)
    }
    func countReused(_ nodes: Int) throws {
      nodeCount += nodes
      guard nodeCount <= Self.maxNodes else { throw fail("has more than \(Self.maxNodes) nodes", at: { "the tree" }) }
    }

    // The positions whose element may not be the one its row was drawn from: the collection's
    // write log says which since the last read when it can (O(changes)), else every element's
    // bits are compared; nil when the rows cannot be kept in place.
    let differing: [Int]? = {
      guard group.feature === rowFeature, group.elements.count == elements.count else { return nil }
      if let seen = group.newestWrite, let written = collection.writes.positions(after: seen) {
        return written.filter { $0 < elements.count }
      }
      return Self.positionsChanged(from: group.elements, to: elements)
    }()
    if let differing,
       case let changed = differing.filter({ !group.elements[$0].isIdentical(to: elements[$0]) }),
       changed.allSatisfy({ IdentifiedValues.id(of: elements[$0]) == group.rows[$0].id }) {
      // Every element at its row's place: only the changed ones are drawn (an equal one is not),
      // the other rows are kept as they are.
      let redrawn = changed.filter { group.elements[$0] != elements[$0] }
      try countReused(redrawn.reduce(group.totalNodes) { $0 - group.nodeCounts[$1] })
      for position in redrawn {
        let (row, nodes) = try draw(elements[position], id: group.rows[position].id, at: position)
        group.rows.replace(at: position, with: row)
        group.totalNodes += nodes - group.nodeCounts[position]
        group.nodeCounts[position] = nodes
      }
      for position in differing { group.elements[position] = elements[position] }
      group.newestWrite = collection.writes.newest
      cache.keep(group, as: groupKey, drawn: redrawn.count, reused: elements.count - redrawn.count, examined: differing.count)
      return .list(group.rows)
    }

    let sameFeature = group.feature === rowFeature
    var rows: [ReluaViewRow] = []
    rows.reserveCapacity(elements.count)
    var nodeCounts: [Int] = []
    nodeCounts.reserveCapacity(elements.count)
    var drawn = 0
    for (position, element) in elements.enumerated() {
      // An element the send did not touch is where it was and shares its storage; else by id, ==.
      var knownID: Value?
      var reusable = sameFeature ? group.identical(at: position, element) : nil
      if reusable == nil {
        knownID = IdentifiedValues.id(of: element)
        reusable = sameFeature ? group.equal(id: knownID!, at: position, element) : nil
      }
      if let found = reusable {
        try countReused(group.nodeCounts[found])
        rows.append(group.rows[found])
        nodeCounts.append(group.nodeCounts[found])
        continue
      }
      let (row, nodes) = try draw(element, id: knownID ?? IdentifiedValues.id(of: element), at: position)
      rows.append(row)
      nodeCounts.append(nodes)
      drawn += 1
    }
    var read = ReluaViewRowCache.Group(
      elements: ReluaViewRowCache.Group.copy(of: elements), feature: rowFeature, rows: ReluaViewRows(rows), nodeCounts: nodeCounts)
    read.newestWrite = collection.writes.newest
    cache.keep(read, as: groupKey, drawn: drawn, reused: rows.count - drawn, examined: elements.count)
    return .list(read.rows)
  }

  /// The positions whose element is not bit for bit the one at that position in `old` (nil when
  /// the counts differ). Equal bits are the same value (the same scalars, the same storage: `old`
  /// keeps its elements alive, so no storage in it was freed and reused); different bits may still
  /// be the same value (bytes a case does not use), which the caller checks for those positions.
  /// One pass of loads, a block of elements at a time: no reference is taken, nothing is hashed.
  nonisolated static func positionsChanged(from old: [Value], to new: [Value]) -> [Int]? {
    guard old.count == new.count else { return nil }
    let count = old.count
    return old.withUnsafeBytes { old in
      new.withUnsafeBytes { new -> [Int] in
        guard let a = old.baseAddress, let b = new.baseAddress, a != b else { return [] }
        let stride = MemoryLayout<Value>.stride, size = MemoryLayout<Value>.size, block = 8
        var changed: [Int] = []
        var start = 0
        while start < count {
          let end = Swift.min(start &+ block, count)
          // The block's bytes, padding included (a difference there is sorted out element by element).
          if !sameBytes(a + start &* stride, b + start &* stride, (end &- start) &* stride) {
            for position in start..<end where !sameBytes(a + position &* stride, b + position &* stride, size) {
              changed.append(position)
            }
          }
          start = end
        }
        return changed
      }
    }
  }

  /// Whether `count` bytes at `a` and `b` are equal: 16 bytes at a time, no early exit and no
  /// overflow check in the loop, so it compiles to vector loads, xor and or.
  @inline(__always)
  private nonisolated static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var difference = SIMD2<UInt64>()
    var offset = 0
    while offset &+ 16 <= count {
      difference |= a.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
        ^ b.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
      offset &+= 16
    }
    var tail: UInt8 = 0
    while offset < count {
      tail |= a.load(fromByteOffset: offset, as: UInt8.self) ^ b.load(fromByteOffset: offset, as: UInt8.self)
      offset &+= 1
    }
    return difference == SIMD2() && tail == 0
  }
}
