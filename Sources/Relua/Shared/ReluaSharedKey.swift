/// Where a shared value lives beyond the stores that hold it (swift-sharing's `SharedKey`): a
/// file, an app's key–value store, a database table — or nowhere (`inMemory`).
///
/// relua asks a key for its value once, when the first store holding the share needs it, saves
/// after each send that changed it (off the send path when `saveDelay` is set, debounced), and
/// listens for changes made outside the process. Every method may throw: a load error leaves the
/// holders at their default and is readable by the feature (`deps.shared(key):loadError()`), a
/// save error likewise; neither stops a store.
///
/// Register a kind of key of your own with `ReluaRuntime.registerSharedKey(_:make:)`; scripts
/// name it with `relua.sharedKey("kind", argument)`.
public protocol ReluaSharedKey: Sendable {
  /// The share's identity: two keys with the same id are the same shared value
  /// (`fileStorage:/abs/path/items.json`).
  var id: String { get }
  /// How messages name it (`fileStorage("items.json")`).
  var description: String { get }
  /// The stored value; nil when nothing is stored yet (the holders' default is used).
  func load() throws -> Value?
  /// Stores `value`. Called on a background thread when `saveDelay` is set, else on the main actor.
  func save(_ value: Value) throws
  /// How long to wait after a change before saving (a burst of changes is saved once); nil saves
  /// at the end of each send that changed the value, on the main actor.
  var saveDelay: Duration? { get }
  /// Keeps what is stored somewhere else before the next save overwrites it: called once after
  /// a load error (a file that is not JSON, or not the shape the state holds), so that saving
  /// never destroys data relua could not read. A file storage renames the file aside.
  func keepStoredAside() throws
  /// Calls `didChange` when the stored value changed outside this process (a file edited by
  /// hand): relua then loads it again. Returns what stops listening; nil when the key cannot tell.
  func subscribe(_ didChange: @escaping @Sendable () -> Void) -> ReluaSharedSubscription?
}

extension ReluaSharedKey {
  /// No delay: saved at the end of each send that changed the value, on the main actor.
  public var saveDelay: Duration? { nil }
  /// Nothing to keep aside.
  public func keepStoredAside() throws {}
  /// Cannot tell outside changes: nil.
  public func subscribe(_ didChange: @escaping @Sendable () -> Void) -> ReluaSharedSubscription? { nil }
}

/// What stops a key's listening for outside changes (`ReluaSharedKey.subscribe`).
public final class ReluaSharedSubscription: Sendable {
  private let stop: @Sendable () -> Void

  /// A subscription that calls `stop` when cancelled.
  public init(_ stop: @escaping @Sendable () -> Void) { self.stop = stop }

  /// Stops listening.
  public func cancel() { stop() }
}

/// What a kind of key registered from Swift is given to make a key: the script's argument, and
/// the environment of the registry asking (a test's in-memory files, the sandbox's roots).
public struct ReluaSharedKeyRequest: Sendable {
  /// The second argument of `relua.sharedKey(kind, argument)`.
  public let argument: Value
  /// Whether the registry belongs to a test store (each test starts from fresh shares).
  public let isTest: Bool
  /// Whether the key keeps its values in real storage: a live store's, or a test store's given
  /// `files = "disk"`. When false (a test's default) keep them in memory, fresh for each test.
  public let usesRealFiles: Bool
  /// Resolves a path the script named against the sandbox's roots (any path when trusted),
  /// throwing a message for one outside them.
  public let resolvePath: @Sendable (String) throws -> String
}
