import Relua

/// Which screens to draw again after a change of state: a screen's view is a function of its
/// state (and, for a sheet's toolbar, its presenter's view), so a screen whose state is as last
/// drawn keeps its tree and its view is not called.
///
/// A presenter's state holds the states of the screens it presents (the root's holds them all):
/// those parts are compared by presence only (open or not, the same stack elements), so typing in a
/// sheet does not draw the list under it again. The price: a presenter's view that shows a field of
/// a screen it presents is drawn again only when something of its own changes. A sheet is drawn
/// again when its own state changed, or when its presenter was drawn again and the bar it gives
/// the sheet (`ui.toolbar(place, …)`, the presenter's view) is not the one it gave before.
enum WebAppRedraw {
  /// One step from a presenter's state towards a screen it presents: a field, or (`eachElement`)
  /// every element of the stack at that field (`path[id=3].detail`: `path`'s elements, then `detail`).
  struct Step: Equatable {
    var key: String
    var eachElement: Bool
  }

  /// The steps of a place relative to its presenter's (`destination.add`, `path[id="a.b"].detail`).
  static func steps(of place: Substring) -> [Step] {
    var steps: [Step] = []
    var key = ""
    var eachElement = false
    var index = place.startIndex
    while index < place.endIndex {
      let character = place[index]
      switch character {
      case ".":
        steps.append(Step(key: key, eachElement: eachElement))
        key = ""
        eachElement = false
      case "[":
        // An element's id, a Lua literal: skipped to its `]`, quoted text and escapes included.
        eachElement = true
        var quote: Character?
        index = place.index(after: index)
        while index < place.endIndex {
          let inside = place[index]
          if let open = quote {
            if inside == "\\" { index = place.index(after: index); if index == place.endIndex { break } }
            else if inside == open { quote = nil }
          } else if inside == "\"" || inside == "'" {
            quote = inside
          } else if inside == "]" {
            break
          }
          index = place.index(after: index)
        }
      default:
        key.append(character)
      }
      if index < place.endIndex { index = place.index(after: index) }
    }
    steps.append(Step(key: key, eachElement: eachElement))
    return steps
  }

  /// The places of `screens` below `place` (every other screen below the root), as steps from it.
  static func placesBelow(_ place: String, among screens: [ReluaScreen]) -> [[Step]] {
    screens.compactMap { other in
      if place.isEmpty { return other.place.isEmpty ? nil : steps(of: other.place[...]) }
      guard other.place.hasPrefix(place + ".") else { return nil }
      return steps(of: other.place.dropFirst(place.count + 1))
    }
  }

  /// Whether `old` and `new` are the same outside `places` (where only whether a value is there counts).
  static func same(_ old: Value, _ new: Value, outside places: [[Step]]) -> Bool {
    if places.isEmpty { return old == new }
    if places.contains(where: \.isEmpty) { return old.isNull == new.isNull }
    guard case .record(let oldFields) = old, case .record(let newFields) = new else { return old == new }
    guard oldFields.keys == newFields.keys else { return false }
    for field in oldFields.fields {
      let below = places.filter { $0[0].key == field.key }
      let newValue = newFields[field.key]
      if below.isEmpty {
        guard field.value == newValue else { return false }
      } else if below.contains(where: \.[0].eachElement) {
        let rest = below.filter(\.[0].eachElement).map { Array($0.dropFirst()) }
        guard let oldElements = elements(field.value), let newElements = elements(newValue),
          oldElements.count == newElements.count,
          zip(oldElements, newElements).allSatisfy({ same($0, $1, outside: rest) })
        else { return false }
      } else {
        guard same(field.value, newValue, outside: below.map { Array($0.dropFirst()) }) else { return false }
      }
    }
    return true
  }

  /// A stack's elements (an identified collection or a plain list).
  private static func elements(_ value: Value) -> [Value]? {
    switch value {
    case .array(let elements): return elements
    case .identified(let collection): return collection.elements
    default: return nil
    }
  }

  /// The bar `tree` gives the screen at `place` (`ui.toolbar(place, …)` in a presenter's view): its items.
  static func bar(in tree: ReluaViewNode?, for place: String) -> [ReluaViewNode] {
    guard let tree else { return [] }
    return tree.allNodes.flatMap { node -> [ReluaViewNode] in
      guard case .toolbar(let target, let items) = node, target == place else { return [] }
      return items
    }
  }
}
