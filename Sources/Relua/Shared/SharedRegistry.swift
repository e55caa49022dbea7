import Composable
import Foundation

/// The shared values of a group of stores: a runtime's live stores share one registry (so
/// `inMemory` keys are per runtime, one Lua state), each test store has its own, fresh (its
/// `fileStorage` and `appStorage` in memory unless the test gives files).
///
/// A send changes shares through its holders (`SharedSync`); the registry remembers each
/// share's value before the send's first change, so a send that fails gives them back, and
/// when the send ends it saves what changed and brings the other stores' holders up to date.
@MainActor
package final class SharedRegistry {
  /// Where keys keep their values.
  package struct Environment: Sendable {
    package var files: any SharedFileSystem
    package var isTest: Bool
    /// Whether `files` are the real ones (a live store, or a test given `files = "disk"`).
    package var usesRealFiles: Bool
    /// Paths scripts name, resolved against the sandbox's roots (throws for one outside).
    package var resolvePath: @Sendable (String) throws -> String
    /// The app's key–value file (`appStorage`).
    package var appStorageFile: String
  }

  package let environment: Environment
  /// Kinds of key registered from Swift, by name.
  private let customKinds: () -> [String: @Sendable (ReluaSharedKeyRequest) throws -> any ReluaSharedKey]
  private var byDescriptor: [SharedKeyDescriptor: Share] = [:]
  private var byID: [String: Share] = [:]
  private var byFeature: [ObjectIdentifier: (feature: FeatureDefinition, shares: [Share])] = [:]
  @exclusivity(unchecked) private var lastFeature: ObjectIdentifier?
  @exclusivity(unchecked) private var lastShares: [Share] = []
  /// What saves and outside changes, finishing on other threads, reach the registry through
  /// (no weak reference to the registry or its shares: one would give them side tables, and
  /// their every retain would take the slow path).
  private let handle = Handle()

  /// The registry, while it lives.
  private final class Handle: @unchecked Sendable {  // read and written on the main actor only
    unowned(unsafe) var registry: SharedRegistry?
  }
  /// Shares changed by the running send (each keeps what it held before it: `valueBeforeSend`).
  @exclusivity(unchecked) private var changed: [Share] = []
  /// Counts every change of any share's value: a store whose holders were last brought up to
  /// date at another count may hold stale copies (see `SharedSync`, `SharedReadBarrier`).
  @exclusivity(unchecked) nonisolated(unsafe) package private(set) var writes: UInt64 = 0
  @exclusivity(unchecked) private var links: [ObjectIdentifier: SharedStoreLink] = [:] {
    didSet { onlyLink = links.count == 1 ? links.first!.key : nil }
  }
  /// The one store linked, when there is one only (a send of it has no other store to update).
  @exclusivity(unchecked) private var onlyLink: ObjectIdentifier?
  /// Reports a load or save error (the stores' warnings, standard error).
  package var warn: (String) -> Void = { FileHandle.standardError.write(Data(("relua: " + $0 + "\n").utf8)) }

  package init(
    environment: Environment,
    customKinds: @escaping () -> [String: @Sendable (ReluaSharedKeyRequest) throws -> any ReluaSharedKey] = { [:] }
  ) {
    self.environment = environment
    self.customKinds = customKinds
    handle.registry = self
  }

  isolated deinit {
    handle.registry = nil
    for share in byID.values { share.subscription?.cancel() }
  }

  // MARK: Shares

  /// The shares of `feature`'s bindings, in their order (found once per feature: a walk over
  /// many holders looks them up by the feature, not by hashing each key).
  func shares(of feature: FeatureDefinition) throws -> [Share] {
    let id = ObjectIdentifier(feature)
    // A walk over a collection asks for the same feature again and again.
    if id == lastFeature { return lastShares }
    let found: [Share]
    if let known = byFeature[id] {
      found = known.shares
    } else {
      found = try feature.sharedBindings.map { try share(for: $0.key) }
      byFeature[id] = (feature, found)  // (the feature kept, so its identifier is not reused)
    }
    lastFeature = id
    lastShares = found
    return found
  }

  /// Every share this registry keeps (one per key), for the memory limit's measurement: a
  /// share's value is held here whether or not a store holds it.
  package var allShares: some Collection<Share> { byID.values }

  /// The share `descriptor` names, loading its value the first time.
  package func share(for descriptor: SharedKeyDescriptor) throws -> Share {
    let whole = descriptor.whole
    if let share = byDescriptor[whole] { return share }
    let key = try makeKey(whole)
    if let share = byID[key.id] {
      byDescriptor[whole] = share
      return share
    }
    let share = Share(key: key)
    byDescriptor[whole] = share
    byID[key.id] = share
    load(share)
    let handle = handle
    let id = key.id
    share.subscription = key.subscribe {
      Task { @MainActor in
        guard let registry = handle.registry, let share = registry.byID[id] else { return }
        registry.reloadAfterOutsideChange(share)
      }
    }
    return share
  }

  private func makeKey(_ descriptor: SharedKeyDescriptor) throws -> any ReluaSharedKey {
    let name = descriptor.argument.stringValue
    switch descriptor.kind {
    case "inMemory":
      return InMemoryKey(name: name ?? "")
    case "fileStorage":
      let written = name ?? ""
      return FileStorageKey(path: try environment.resolvePath(written), written: written, files: environment.files)
    case "appStorage":
      return AppStorageKey(name: name ?? "", file: environment.appStorageFile, files: environment.files)
    default:
      guard let make = customKinds()[descriptor.kind] else {
        let known = (["appStorage", "fileStorage", "inMemory"] + customKinds().keys.sorted()).joined(separator: ", ")
        throw ReluaError.usage("no kind of shared key is called '\(descriptor.kind)' (known: \(known)); a Swift program registers one with ReluaRuntime.registerSharedKey")
      }
      let environment = environment
      return try make(ReluaSharedKeyRequest(argument: descriptor.argument, isTest: environment.isTest, usesRealFiles: environment.usesRealFiles, resolvePath: environment.resolvePath))
    }
  }

  private func load(_ share: Share) {
    do {
      share.value = try share.key.load()
      writes &+= 1
      share.loadError = nil
    } catch {
      failedToLoad(share, error)
    }
  }

  /// What is stored could not be read: a load error, a warning, and what is stored kept aside
  /// before the next save.
  private func failedToLoad(_ share: Share, _ error: any Error) {
    share.loadError = "\(error)"
    share.keepStoredAside = true
    warn("\(share.key.description): \(error)")
  }

  /// A holder of the whole value meets a share not yet checked against one: nothing stored
  /// makes its default the value (not saved: as TCA's, a default is stored only once changed);
  /// a stored value takes the default's kinds of containers (a JSON array becomes an identified
  /// collection), and one of another kind is a load error — the holder keeps its default, and
  /// what is stored is moved aside before the next save, never overwritten.
  func settle(_ share: Share, withDefault holder: Value) {
    if holder.isNull { return }  // (a holder without a default: the next one settles it)
    share.isSettled = true
    guard let stored = share.value else {
      share.value = holder
      writes &+= 1
      return
    }
    if let conformed = try? stored.conformed(to: holder), Self.sameKind(conformed, holder) || (holder.isContainer && holder.count == 0 && conformed.isContainer) {
      if !conformed.isIdentical(to: stored) {
        share.value = conformed
        writes &+= 1
      }
      return
    }
    share.loadError = "\(share.key.description) holds \(describeValue(stored)), but the state holds \(describeValue(holder)) there: the default is used, and what is stored will be moved aside before the next save"
    share.keepStoredAside = true
    warn(share.loadError!)
    share.value = holder
    writes &+= 1
  }

  private static func sameKind(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.integer, .integer), (.float, .float), (.string, .string), (.boolean, .boolean): return true
    case (.integer, .float), (.float, .integer): return true
    case (.array, .array), (.record, .record), (.identified, .identified): return true
    case (.array(let elements), .identified), (.identified, .array(let elements)): return elements.isEmpty
    default: return false
    }
  }

  // MARK: Writes

  /// A holder's change: the share's new value (journalled for the running send).
  func write(_ share: Share, value: Value) {
    if !share.isJournalled {
      share.isJournalled = true
      share.valueBeforeSend = share.value
      changed.append(share)
    }
    share.value = value
    share.version &+= 1
    writes &+= 1
  }

  /// Starts a send (its changes can be given back).
  package func beginSend() { if !changed.isEmpty { forgetChanges() } }

  private func forgetChanges() {
    for share in changed {
      share.isJournalled = false
      share.valueBeforeSend = nil
    }
    changed.removeAll(keepingCapacity: true)
  }

  /// The send failed: every share it changed holds what it held before.
  package func rollBackSend() {
    for share in changed.reversed() {
      share.value = share.valueBeforeSend
      share.version &+= 1
      writes &+= 1
    }
    forgetChanges()
  }

  /// The send ended: saves what changed, and updates the other stores' holders.
  package func commitSend(sender: ObjectIdentifier?) {
    guard !changed.isEmpty else { return }
    // Saves start no user code: `changed` cannot change while they are scheduled.
    for share in changed {
      share.isJournalled = false
      share.valueBeforeSend = nil
      if share.persists { scheduleSave(share) }
    }
    changed.removeAll(keepingCapacity: true)
    propagate(except: sender)
  }

  /// What `key` names now: its part of its share's value; nil when there is none yet.
  package func value(of key: SharedKeyDescriptor) throws -> Value? {
    try share(for: key).projected(key.projection, holder: .null)
  }

  /// What a value given for `key` from Lua is read against (its kinds of containers: a list
  /// given for an identified collection stays one): the share's value, for a key of all of it.
  package func hint(for key: SharedKeyDescriptor) throws -> Value? {
    key.projection == .whole ? try share(for: key).value : nil
  }

  /// Sets what `key` names from outside a send (see `writeOutsideSend`); throws when `key` names
  /// an element the share does not have.
  package func set(_ key: SharedKeyDescriptor, to value: Value) throws {
    let share = try share(for: key)
    guard let whole = share.writing(value, at: key.projection) else {
      throw SharedStorageError("\(key.description) has no element with id \(value[key: "id"])")
    }
    writeOutsideSend(share, value: whole)
  }

  /// Sets what `key` names from a reducer: a write of the running send (journalled with it, saved
  /// and spread when it ends, given back if it fails); the store's holders take it when read.
  package func setInSend(_ key: SharedKeyDescriptor, to value: Value) throws {
    let share = try share(for: key)
    guard let whole = share.writing(value, at: key.projection) else {
      throw SharedStorageError("\(key.description) has no element with id \(value[key: "id"])")
    }
    write(share, value: whole)
  }

  /// Why what `key`'s share stores could not be loaded (`saving`: saved), or nil.
  package func error(of key: SharedKeyDescriptor, saving: Bool) throws -> String? {
    let share = try share(for: key)
    return saving ? share.saveError : share.loadError
  }

  /// A write from outside a send (an effect's `withLock`, a test, a Swift program): saved, and
  /// every store's holders updated.
  package func writeOutsideSend(_ share: Share, value: Value) {
    share.value = value
    share.version &+= 1
    writes &+= 1
    scheduleSave(share)
    propagate(except: nil)
  }

  private func reloadAfterOutsideChange(_ share: Share) {
    // A change of this process's not saved yet is saved first: a reload would drop it from the
    // holders while its save, still waiting, wrote it over what was just loaded (and a key that
    // merges — sqlite's, by rows — would compare it with rows it was not made from).
    share.pendingSave?.runIfNotStarted()
    share.pendingSave = nil
    let before = share.value
    do {
      guard let loaded = try share.key.load() else { return }
      share.loadError = nil
      if let before, loaded.sameInLua(as: before) { return }
      share.value = before.flatMap { try? loaded.conformed(to: $0) } ?? loaded
      share.version &+= 1
      writes &+= 1
      propagate(except: nil)
    } catch {
      failedToLoad(share, error)
    }
  }

  // MARK: Saving

  private func scheduleSave(_ share: Share) {
    guard share.persists, let value = share.value else { return }
    guard let delay = share.key.saveDelay else {
      save(share, value)
      return
    }
    // A save replaced before it started hands on its setting aside: what could not be read is
    // never overwritten.
    if let replaced = share.pendingSave, replaced.cancel(), replaced.setsAside { share.keepStoredAside = true }
    let version = share.version
    let key = share.key
    let setAside = share.keepStoredAside
    share.keepStoredAside = false
    let handle = handle
    let id = key.id
    let pending = PendingSave(setsAside: setAside) {
      let outcome = Self.store(value, in: key, settingAside: setAside).failure
      Task { @MainActor in
        guard let registry = handle.registry, let share = registry.byID[id] else { return }
        share.saveCount += 1
        guard share.version == version || outcome != nil else { return }
        share.saveError = outcome
        if let outcome { registry.warn("\(key.description): could not save: \(outcome)") }
      }
    }
    share.pendingSave = pending
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(Int(delay / .milliseconds(1)))) {
      pending.runIfNotStarted()
    }
  }

  private func save(_ share: Share, _ value: Value) {
    let setAside = share.keepStoredAside
    share.keepStoredAside = false
    let (failure, setAsideFailed) = Self.store(value, in: share.key, settingAside: setAside)
    // (What could not be moved aside is tried again at the next save.)
    if setAsideFailed { share.keepStoredAside = true }
    if failure == nil { share.saveCount += 1 }
    share.saveError = failure
    if let failure { warn("\(share.key.description): could not save: \(failure)") }
  }

  /// One save: what is stored moved aside first if asked, then `value` stored. Why it failed
  /// (nil: it did not), and whether the failure was in moving aside.
  nonisolated private static func store(
    _ value: Value, in key: any ReluaSharedKey, settingAside: Bool
  ) -> (failure: String?, setAsideFailed: Bool) {
    if settingAside {
      do { try key.keepStoredAside() } catch { return ("\(error)", true) }
    }
    do {
      try key.save(value)
      return (nil, false)
    } catch {
      return ("\(error)", false)
    }
  }

  /// Runs every save still waiting (a store closing, the process exiting, a test ending).
  package func flush() {
    for share in byID.values {
      share.pendingSave?.runIfNotStarted()
      share.pendingSave = nil
    }
  }

  // MARK: Stores

  /// Keeps `store` (of `feature`) up to date with changes made elsewhere.
  package func link(_ link: SharedStoreLink) { links[link.id] = link }

  package func unlink(_ id: ObjectIdentifier) { links[id] = nil }

  func linked(_ id: ObjectIdentifier) -> SharedStoreLink? { links[id] }

  /// Runs `body` on the main actor after what runs now, if the registry still lives.
  func later(_ body: @escaping @MainActor (SharedRegistry) -> Void) {
    let handle = handle
    Task { @MainActor in
      guard let registry = handle.registry else { return }
      body(registry)
    }
  }

  /// Brings every linked store but `sender` up to date (a store's walk visits only the subtrees
  /// that hold shares).
  private func propagate(except sender: ObjectIdentifier?) {
    if let sender, onlyLink == sender { return }  // (the commonest case: one store)
    for (id, link) in links where id != sender { link.refresh(using: self) }
  }
}
