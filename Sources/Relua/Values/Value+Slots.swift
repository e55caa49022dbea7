// Slot writes as a Lua assignment `container[key] = value` does them, and their exact inverses
// (used by state views and their undo log). Each works in place on the container.

/// What a slot write did, so it can be undone exactly.
enum SlotChange {
  /// A field was set or removed, or an element replaced: undo writes the old value back.
  case replaced
  /// An element was appended (`t[#t + 1] = v`): undo removes the last element.
  case appended
  /// The last element was removed (`t[#t] = nil`): undo appends the old value.
  case removedLast
  /// Nothing changed (`t[#t + 1] = nil`, or nil into an absent field).
  case none
}

extension Value {
  /// Checks that `new` may go into `component` of this container and says what the write will
  /// be; throws a message (without path) when Lua code may not do it.
  func plannedChange(at component: PathComponent, to new: Value) throws(SlotRule) -> SlotChange {
    switch (self, component) {
    case (.record(let record), .key(let key)):
      return new.isNull && !record.search(key).found ? .none : .replaced
    case (.array(let elements), .index(let position)):
      return try sequenceChange(count: elements.count, position: position, new: new)
    case (.identified(let collection), .index(let position)):
      if !new.isNull, IdentifiedValues.id(of: new).isNull {
        throw SlotRule(message: "elements of an identified collection must be records with an id")
      }
      return try sequenceChange(count: collection.count, position: position, new: new)
    case (.record, _): throw SlotRule(message: "records have string keys only")
    default: throw SlotRule(message: "sequences have integer keys 1…n only")
    }
  }

  private func sequenceChange(count: Int, position: Int, new: Value) throws(SlotRule) -> SlotChange {
    if position == count { return new.isNull ? .none : .appended }
    guard position >= 0, position < count else {
      throw SlotRule(message: "index \(position + 1) is out of range 1…\(count + 1) of a sequence")
    }
    if new.isNull {
      guard position == count - 1 else {
        throw SlotRule(message: "setting nil would leave a hole in a sequence (use table.remove)")
      }
      return .removedLast
    }
    return .replaced
  }

  /// Sets the field of this record that a search found at `position` (see `ValueRecord.set(at:)`).
  mutating func setField(at position: Int, found: Bool, key: String, _ new: Value) {
    guard case .record(var record) = self else { preconditionFailure("not a record") }
    self = .null
    record.set(at: position, found: found, key: key, new)
    self = .record(record)
  }

  /// Replaces the value of this record's field at `position` (which holds one).
  mutating func setField(at position: Int, to new: Value) {
    guard case .record(var record) = self else { preconditionFailure("not a record") }
    self = .null
    record.fields[position].value = new
    self = .record(record)
  }

  /// Applies a planned write (plain functions, no `_modify` coroutines: this is the hot path).
  mutating func apply(_ change: SlotChange, at component: PathComponent, _ new: Value) {
    switch (change, component) {
    case (.none, _): return
    case (.replaced, .key(let key)):
      guard case .record(var record) = self else { preconditionFailure("not a record") }
      self = .null
      record.set(key, new)
      self = .record(record)
    case (.replaced, .index(let position)):
      if case .array(var elements) = self {
        self = .null
        elements[position] = new
        self = .array(elements)
      } else if case .identified(var collection) = self {
        self = .null
        collection[position] = new
        self = .identified(collection)
      } else {
        preconditionFailure("not a sequence")
      }
    case (.replaced, _): self[component] = new
    case (.appended, _), (.removedLast, _):
      // `if case`, not `switch self`: see Value+Subscripts.swift.
      if case .array(var elements) = self {
        self = .null
        if case .appended = change { elements.append(new) } else { elements.removeLast() }
        self = .array(elements)
      } else if case .identified(var collection) = self {
        self = .null
        if case .appended = change {
          collection.setSlot(collection.count, to: new)
        } else {
          collection.remove(at: collection.count - 1)
        }
        self = .identified(collection)
      } else {
        preconditionFailure("only sequences grow or shrink")
      }
    }
  }

  /// Undoes a write that was applied with `old` the slot's value before it.
  mutating func undo(_ change: SlotChange, at component: PathComponent, old: Value) {
    switch change {
    case .none: return
    case .replaced: apply(.replaced, at: component, old)
    case .appended: apply(.removedLast, at: component, .null)
    case .removedLast: apply(.appended, at: component, old)
    }
  }
}

/// A rule of Lua sequences and records that a write broke (the caller adds the path).
struct SlotRule: Error {
  let message: String
}

extension Value {
  /// Runs `body` on the value at `path` (from `start`), in place: each container on the way is
  /// taken out of its enum, so it stays uniquely referenced. A plain recursive function rather
  /// than nested `_modify` accessors, which cost several times more per level.
  package mutating func modify<R>(at path: ValuePath, from start: Int = 0, _ body: (inout Value) throws -> R) rethrows -> R {
    if start == path.count { return try body(&self) }
    switch path[start] {
    case .key(let key):
      guard case .record(var record) = self else { preconditionFailure("no record at this path") }
      let (position, found) = record.search(key)
      precondition(found, "no field '\(key)' at this path")
      self = .null
      defer { self = .record(record) }
      return try record.fields[position].value.modify(at: path, from: start + 1, body)
    case .index(let position):
      if case .array(var elements) = self {
        self = .null
        defer { self = .array(elements) }
        return try elements[position].modify(at: path, from: start + 1, body)
      }
      guard case .identified(var collection) = self else { preconditionFailure("no sequence at this path") }
      self = .null
      defer { self = .identified(collection) }
      return try collection.modifyElement(at: position) { try $0.modify(at: path, from: start + 1, body) }
    case .id(let id):
      guard case .identified(var collection) = self, let position = collection.index(id: id) else {
        preconditionFailure("no element with id \(id.luaLiteral()) at this path")
      }
      self = .null
      defer { self = .identified(collection) }
      return try collection.modifyElement(at: position) { try $0.modify(at: path, from: start + 1, body) }
    }
  }
}
