import Foundation

/// One shared value of a registry: what its key stores, what holders see, and its errors.
@MainActor
package final class Share {
  package let key: any ReluaSharedKey
  /// The value every holder sees; nil until something was stored or a holder gave its default.
  @exclusivity(unchecked) package internal(set) var value: Value?
  /// Why the stored value could not be read (the holders kept their default); nil when it could.
  package internal(set) var loadError: String?
  /// Why the last save failed; nil after a save that worked.
  @exclusivity(unchecked) package internal(set) var saveError: String?
  /// Whether the value was checked against a holder's default (`SharedRegistry.settle`).
  @exclusivity(unchecked) var isSettled = false
  /// Whether what is stored must be kept aside before the next save (it could not be read).
  @exclusivity(unchecked) var keepStoredAside = false
  /// Counts changes (a save in flight compares it to know whether it is the latest).
  @exclusivity(unchecked) var version: UInt64 = 0
  /// Whether the running send already noted the value this share had before it (`SharedRegistry.write`).
  @exclusivity(unchecked) var isJournalled = false
  /// What it held before the running send changed it (while `isJournalled`).
  @exclusivity(unchecked) var valueBeforeSend: Value?
  /// How many saves ran (a burst of changes is saved a few times at most, not once per change).
  @exclusivity(unchecked) package internal(set) var saveCount = 0
  /// The debounced save waiting to run.
  @exclusivity(unchecked) var pendingSave: PendingSave?
  var subscription: ReluaSharedSubscription?

  /// Whether a change is saved anywhere (an `inMemory` share's is not: no save to schedule).
  let persists: Bool

  init(key: any ReluaSharedKey) {
    self.key = key
    persists = !(key is InMemoryKey)
  }

  /// The part of the value a holder sees: all of it, one element (by the holder's own `id`), or
  /// one field; nil when there is none (nothing stored yet, or the element is gone).
  func projected(_ projection: SharedProjection, holder: Value) -> Value? {
    guard let value else { return nil }
    switch projection {
    case .whole:
      return value
    case .element:
      let id = holder[key: "id"]
      switch value {
      case .identified(let collection):
        guard let position = collection.index(id: id) else { return nil }
        return collection[position]
      case .array(let elements):
        return elements.first { $0[key: "id"] == id }
      default:
        return nil
      }
    case .field(let keys):
      var current = value
      for key in keys {
        guard case .record = current else { return nil }
        current = current[key: key]
      }
      return current.isNull ? Value?.none : current
    }
  }

  /// The whole value with `holder` written where `projection` points; nil when there is no such
  /// place (the element is gone, or a field's parent is not a record).
  func writing(_ holder: Value, at projection: SharedProjection) -> Value? {
    switch projection {
    case .whole:
      return holder
    case .element:
      let id = holder[key: "id"]
      switch value {
      case .identified(var collection)?:
        guard let position = collection.index(id: id) else { return nil }
        collection.setSlot(position, to: holder)
        return .identified(collection)
      case .array(var elements)?:
        guard let position = elements.firstIndex(where: { $0[key: "id"] == id }) else { return nil }
        elements[position] = holder
        return .array(elements)
      default:
        return nil
      }
    case .field(let keys):
      var whole = value ?? .record(ValueRecord())
      guard Self.write(holder, at: keys[...], into: &whole) else { return nil }
      return whole
    }
  }

  private static func write(_ new: Value, at keys: ArraySlice<String>, into value: inout Value) -> Bool {
    guard let first = keys.first else {
      value = new
      return true
    }
    if value.isNull { value = .record(ValueRecord()) }
    guard case .record = value else { return false }
    var field = value[key: first]
    guard write(new, at: keys.dropFirst(), into: &field) else { return false }
    value[key: first] = field
    return true
  }
}
