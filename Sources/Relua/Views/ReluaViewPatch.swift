/// One step of a change from one ``ReluaViewNode`` tree to the next: what a renderer that
/// already draws the old tree (a web page, a native view) applies instead of drawing it all again.
///
/// A node is addressed by `at`, child indices from the root (`[]` is the root) through
/// ``ReluaViewNode/children`` (a list's i-th child is its i-th row's content). A change is an
/// ordered list of patches, each applied to the tree as the ones before it left it; an empty list
/// is no change. ``changes(from:to:)`` computes it, ``ReluaViewNode/applying(_:)`` applies it, and
/// its JSON (`{"op":"replace",…}`, `{"op":"rows",…}`) is what a page receives.
public enum ReluaViewPatch: Sendable, Equatable {
  /// The node at `at` is now `node`, the whole subtree.
  case replace(at: [Int], node: ReluaViewNode)
  /// The list at `at` has its rows in the order `ids` (nil: the order is unchanged, so no row was
  /// added or removed); each row of `rows` gets that content (every new id must be there), a row
  /// whose id is in `ids` but not in `rows` keeps its content, and a row whose id is not in `ids`
  /// is removed. Patches after it address the rows by their new positions.
  case rows(at: [Int], ids: [Value]?, rows: [ReluaViewRow])

  /// Where the patch applies: child indices from the root.
  public var at: [Int] {
    switch self {
    case .replace(let at, _), .rows(let at, _, _): return at
    }
  }

  /// The patches that turn `old` into `new`, in order (empty when they are equal): nodes of the
  /// same kind and shape are compared child by child, a list row by row by id (its moves, new and
  /// removed rows in one ``rows(at:ids:rows:)``, then the changes inside rows kept), and anything
  /// else is replaced whole. `old.applying(changes(from: old, to: new)) == new`.
  public static func changes(from old: ReluaViewNode, to new: ReluaViewNode) -> [ReluaViewPatch] {
    var patches: [ReluaViewPatch] = []
    var path: [Int] = []
    ReluaViewDiff.diff(old, new, path: &path, into: &patches)
    return patches
  }
}

/// Why a patch did not apply: the tree it was applied to is not the one it was computed from.
public struct ReluaViewPatchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What did not fit, and where.
  public var message: String

  /// An error saying `message`.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { "view patch: " + message }
}
