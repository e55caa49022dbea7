// Reading and writing inside a value. Every `_modify` works in place: the container is taken out
// of the enum (so it is uniquely referenced), mutated, and put back — no copy of the container.
// The payload is bound with `if case`/`guard case` statements, not `switch self`: in unoptimised
// builds a switch keeps its subject alive to the end of the switch, which holds a second
// reference and makes every write copy the container.

extension Value {
  /// A record field (`.null` when absent or not a record). Setting `.null` removes the field;
  /// setting a field on `.null` makes a record.
  public subscript(key key: String) -> Value {
    get {
      guard case .record(let record) = self else { return .null }
      return record[key]
    }
    _modify {
      var record = ValueRecord()
      if case .record(let existing) = self {
        record = existing
      } else if !isNull {
        preconditionFailure("cannot set field '\(key)' of a \(kindName)")
      }
      self = .null  // drop the enum's reference so `record` is unique
      defer { self = .record(record) }
      yield &record[key]
    }
  }

  /// An element of an array or identified collection (0-based).
  public subscript(index: Int) -> Value {
    get {
      switch self {
      case .array(let elements): return elements.indices.contains(index) ? elements[index] : .null
      case .identified(let collection): return index >= 0 && index < collection.count ? collection[index] : .null
      default: return .null
      }
    }
    _modify {
      if case .array(var elements) = self {
        self = .null
        defer { self = .array(elements) }
        yield &elements[index]
      } else if case .identified(var collection) = self {
        self = .null
        defer { self = .identified(collection) }
        yield &collection[index]
      } else {
        preconditionFailure("cannot index a \(kindName)")
      }
    }
  }

  /// The element of an identified collection with this id (`.null` when absent).
  public subscript(id id: Value) -> Value {
    get { identifiedValue?[id: id] ?? .null }
    _modify {
      guard case .identified(var collection) = self, let position = collection.index(id: id) else {
        preconditionFailure("no element with id \(id.luaLiteral())")
      }
      self = .null
      defer { self = .identified(collection) }
      yield &collection[position]
    }
  }

  /// One step of a path.
  package subscript(component: PathComponent) -> Value {
    get {
      switch component {
      case .key(let key): return self[key: key]
      case .index(let index): return self[index]
      case .id(let id): return self[id: id]
      }
    }
    _modify {
      switch component {
      case .key(let key): yield &self[key: key]
      case .index(let index): yield &self[index]
      case .id(let id): yield &self[id: id]
      }
    }
  }

  /// The value at a path (`.null` when any step is missing); modified in place all the way down.
  package subscript(path path: some Collection<PathComponent>) -> Value {
    get {
      var current = self
      for component in path {
        current = current[component]
        if current.isNull { return .null }
      }
      return current
    }
    _modify {
      if let first = path.first {
        yield &self[first][path: path.dropFirst()]
      } else {
        yield &self
      }
    }
  }

  /// Whether `component` names an existing slot (a present field, an index in range, a known id).
  func contains(_ component: PathComponent) -> Bool {
    switch (component, self) {
    case (.key(let key), .record(let record)): return record.search(key).found
    case (.index(let index), .array(let elements)): return elements.indices.contains(index)
    case (.index(let index), .identified(let collection)): return index >= 0 && index < collection.count
    case (.id(let id), .identified(let collection)): return collection.index(id: id) != nil
    default: return false
    }
  }
}
