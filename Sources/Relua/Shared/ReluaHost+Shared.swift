import Composable
import Foundation
import Lua

/// Shared state in a host: its live registry, the registries of test stores, the kinds of key
/// Swift registered, and what Lua calls (`key:get()`, `key:withLock(f)`, `key:loadError()`).
extension ReluaHost {
  /// The registry of this runtime's live stores (made on first use).
  package var liveShares: SharedRegistry {
    if let made = liveSharesIfMade { return made }
    let made = SharedRegistry(environment: sharedEnvironment(files: DiskFileSystem(), isTest: false)) { [unowned self] in self.sharedKeyKinds }
    liveSharesIfMade = made
    // A trusted script's `os.exit` ends the process at once: the saves still waiting run first.
    LuaProcessExit.setHook { PendingSave.runAllWaiting() }
    return made
  }

  /// Runs the shared values' saves still waiting for their quiet spell (a process about to end:
  /// a signal, an exit without closing the state).
  package func flushSharedSaves() { liveSharesIfMade?.flush() }

  /// A fresh registry for one test store: its files in memory unless `files` is given.
  package func testShares(files: (any SharedFileSystem)? = nil) -> SharedRegistry {
    SharedRegistry(environment: sharedEnvironment(files: files ?? InMemoryFileSystem(), isTest: true)) { [unowned self] in self.sharedKeyKinds }
  }

  /// A test store's `files` option: `"disk"` (the real files), or a table of file names and
  /// their contents (in memory, as the test gives them); nil: empty files in memory.
  func testFiles(_ option: LuaValue?) throws -> (any SharedFileSystem)? {
    guard let option, !option.isNil else { return nil }
    if option.stringValue == "disk" { return DiskFileSystem() }
    guard let table = option.tableValue else {
      throw ReluaError.usage("relua.TestStore: files must be \"disk\" or a table { [\"name.json\"] = \"contents\" }, got \(option.type)")
    }
    var files: [String: Data] = [:]
    let base = sharedFileBase
    for (name, contents) in try table.pairs() {
      guard let name = name.stringValue, let contents = contents.stringValue else {
        throw ReluaError.usage("relua.TestStore: files: expected file names and their contents (strings)")
      }
      files[name == AppStorageKey.appStorageName ? AppStorageKey.file(forApp: sharedAppName) : Self.absolute(name, from: base)] = Data(contents.utf8)
    }
    return InMemoryFileSystem(files: files)
  }

  /// A file's name as a test gives it: relative to the scripts' first root, `appStorage` for the
  /// app's key–value file.
  func sharedFileName(_ path: String) -> String {
    if path == AppStorageKey.file(forApp: sharedAppName) { return AppStorageKey.appStorageName }
    let base = sharedFileBase
    return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
  }

  /// The directories a sandboxed script may keep files in: the script roots, absolute.
  private var sharedFileRoots: [String] {
    lua.scriptRoots.map { Self.absolute($0, from: FileManager.default.currentDirectoryPath) }
  }

  /// What a relative file name is relative to: the first script root (trusted: the current
  /// directory, as `io.open`'s).
  private var sharedFileBase: String {
    let current = FileManager.default.currentDirectoryPath
    return lua.isTrusted ? current : (sharedFileRoots.first ?? current)
  }

  private func sharedEnvironment(files: any SharedFileSystem, isTest: Bool) -> SharedRegistry.Environment {
    let trusted = lua.isTrusted
    let roots = sharedFileRoots
    let base = sharedFileBase
    // A test given `files = "disk"` touches real files: the sandbox's roots hold for it too.
    let realFiles = !(files is InMemoryFileSystem)
    return SharedRegistry.Environment(
      files: files, isTest: isTest, usesRealFiles: realFiles,
      resolvePath: { path in
        guard !path.isEmpty else { throw ReluaError.usage("a shared file needs a name, got an empty string") }
        let resolved = Self.absolute(path, from: base)
        if trusted || !realFiles { return resolved }
        let real = Self.resolvingLinks(resolved)
        guard roots.contains(where: { root in
          let root = Self.resolvingLinks(root)
          return real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }) else {
          throw ReluaError.usage("the shared file \(quoteLuaString(path)) (\(resolved)) is outside the directories this script may use (\(roots.joined(separator: ", "))); run with --trusted to name any path")
        }
        return resolved
      },
      appStorageFile: AppStorageKey.file(forApp: sharedAppName))
  }

  nonisolated private static func absolute(_ path: String, from base: String) -> String {
    let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: base).appendingPathComponent(path)
    return url.standardizedFileURL.path
  }

  /// The path with the links of its deepest existing directory resolved (the file itself may
  /// not exist yet).
  nonisolated private static func resolvingLinks(_ path: String) -> String {
    var existing = URL(fileURLWithPath: path)
    var rest: [String] = []
    while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
      rest.insert(existing.lastPathComponent, at: 0)
      existing.deleteLastPathComponent()
    }
    var resolved = existing.resolvingSymlinksInPath()
    for component in rest { resolved.appendPathComponent(component) }
    return resolved.path
  }

  /// After an action of a store without a transaction of the host's whose tree holds shares:
  /// every holder takes its share's value (writes logged for the send's transaction). A failure
  /// (a key that cannot be made) fails the send.
  func syncShares(in state: inout Value, of feature: FeatureDefinition) -> Effect<FeatureAction>? {
    guard let registry = DependencyValues.current[SharedRegistryKey.self] else { return nil }
    let views = views
    do {
      try SharedSync.syncTree(feature, &state, registry: registry, log: { container, key, old in
        views.recordWrite(at: container, key: key, old: old)
      })
      return nil
    } catch {
      return reducerFailure(error, feature: feature, action: FeatureAction(steps: []))
    }
  }

  /// An expected state a test wrote from `before`: each holder the test changed gives its value
  /// to its share, and every other holder of that share takes it (so a test asserts a shared
  /// change once, at any of its places). Works on a scratch registry: the test's shares are
  /// not touched.
  func spreadingSharedChanges(in state: Value, from before: Value, of feature: FeatureDefinition) throws -> Value {
    let scratch = testShares()
    scratch.warn = { _ in }
    try SharedSync.adoptTree(feature, before, registry: scratch)
    try SharedSync.adoptTree(feature, state, changedSince: before, registry: scratch)
    var state = state
    try SharedSync.syncTree(feature, &state, registry: scratch, log: nil)
    return state
  }

  /// A new store's state: holders take what is stored (or give their defaults to empty shares),
  /// and the store is kept up to date with changes made elsewhere.
  func prepareShares(_ state: inout Value, of feature: FeatureDefinition, registry: SharedRegistry) throws {
    guard feature.reachesShares else { return }
    try SharedSync.syncTree(feature, &state, registry: registry, log: nil)
  }

  /// The registry a key function called from Lua works with: the store reducing or running the
  /// effect now.
  /// Outside any store (a view, a script's own code) it is the runtime's live registry; a test
  /// body reaches its test store's with `store:shared(key)`.
  private func currentRegistry(_ what: String) throws -> SharedRegistry {
    guard let values = DependencyValues.currentOrNil else { return liveShares }
    guard let registry = values[SharedRegistryKey.self] else {
      throw ReluaError.usage("\(what): this store has no shared values (a store of a Swift program's own reducer); in a test, use store:shared(key) and store:setShared(key, value)")
    }
    return registry
  }

  /// `host.sharedGet(key)`, `host.sharedSet(key, value)`, `host.sharedError(key, "load"|"save")`:
  /// what the prelude's key methods call.
  func installSharedPrimitives(into primitives: LuaTable) throws {
    try primitives.rawSet("sharedGet", .function(lua.function { [unowned self] stack in
      let key = try SharedKeyDescriptor(table: stack.table(at: 1), host: self)
      return [try self.currentRegistry("\(key.description):get()").value(of: key).map { try self.lua.value($0) } ?? .nil]
    }))
    try primitives.rawSet("sharedSet", .function(lua.function { [unowned self] stack in
      let key = try SharedKeyDescriptor(table: stack.table(at: 1), host: self)
      let what = "\(key.description):withLock"
      if key.isReadOnly { throw ReluaError.usage("\(what): \(key.description) is read-only") }
      let registry = try self.currentRegistry(what)
      let value = try self.value(from: stack.value(at: 2), hint: registry.hint(for: key))
      // Held by the registry from now on: charged against the memory limit as a state's write is.
      try self.stateMemory.willGrow(by: value.estimatedBytes)
      do {
        // In a reducer (TCA's `$syncUps.withLock` in a reducer: a share its feature does not
        // hold), the write is the send's: given back if it fails, saved and spread when it ends.
        if self.views.isActive { try registry.setInSend(key, to: value) } else { try registry.set(key, to: value) }
      } catch let error as SharedStorageError {
        throw ReluaError.usage("\(what): \(error)")
      }
      return []
    }))
    try primitives.rawSet("sharedError", .function(lua.function { [unowned self] stack in
      let key = try SharedKeyDescriptor(table: stack.table(at: 1), host: self)
      let registry = try self.currentRegistry("\(key.description):loadError()")
      return [try registry.error(of: key, saving: stack.string(at: 2) == "save").map { .text($0) } ?? .nil]
    }))
  }
}

/// Keeps a store's holders up to date with shares changed elsewhere (another store, an effect's
/// `withLock`, a file changed outside the process, a test).
@MainActor
package final class SharedStoreLink {
  package let id: ObjectIdentifier
  /// Not weak: a weak reference gives the store a side table, and every retain of it on the
  /// send path would take the slow path. The store's owner unlinks it before it goes
  /// (`LuaStoreObject`'s deinit; a test store's registry goes with it).
  private unowned(unsafe) let store: Store<Value, FeatureAction>
  private let feature: FeatureDefinition
  /// The store's transaction (told when the holders are brought up to date here).
  private let transaction: ViewsTransaction?
  private var refreshScheduled = false
  /// Told after the store's state changed this way (a test store moves its expected state).
  var didRefresh: ((Value) -> Void)?

  init(store: Store<Value, FeatureAction>, feature: FeatureDefinition, transaction: ViewsTransaction?) {
    id = ObjectIdentifier(store)
    self.store = store
    self.feature = feature
    self.transaction = transaction
  }

  func refresh(using registry: SharedRegistry) {
    if store.isSending {
      // (An effect's first turn runs inside a send: the state is the send's until it ends.)
      guard !refreshScheduled else { return }
      refreshScheduled = true
      let id = id
      registry.later { registry in
        // (Still linked: the store is alive.)
        guard let link = registry.linked(id) else { return }
        link.refreshScheduled = false
        link.refresh(using: registry)
      }
      return
    }
    var state = store.state
    do {
      try SharedSync.syncTree(feature, &state, registry: registry, log: nil)
    } catch {
      registry.warn("\(error)")
      return
    }
    transaction?.didSettle()
    guard !state.isIdentical(to: store.state) else { return }
    store.restore(state)
    didRefresh?(state)
  }
}
