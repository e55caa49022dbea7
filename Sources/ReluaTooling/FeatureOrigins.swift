import Relua

import Foundation

/// Where the features of one loaded script come from, for `relua types`: the file that declares
/// each, the module name it is required by, and the name its types take (its namespace).
///
/// A module's name is its file's path under the outermost script root holding it, dotted, as
/// `require` takes it (`Scripts/Features/Counter.lua` → `Features.Counter`; a file outside the
/// roots: its base name). The feature a file returns is named after the module
/// (`Features.GuessingGame`); a feature the file declares and does not return (alone) is named
/// after the module and itself (`Features.CaseStudies.Destinations.Counter`), so two features
/// called `Counter` in two files never share a name.
@MainActor
struct FeatureOrigins {
  struct Origin: Equatable {
    /// The declaring file, absolute (or as Lua named it, when relua cannot tell which file).
    let file: String
    /// `file:line` of `relua.feature`, the file relative to the current directory when under it.
    let location: String
    let module: String
    let namespace: String
    /// Whether the module returns the feature (then `require "<module>"` gives it).
    let returned: Bool
  }

  /// Type names a feature's own ones are built on (`NS.State`, `NS.Store`…): a feature declared
  /// with one of them is named `NS.<Name>Feature`.
  static let reservedSuffixes: Set<String> = ["State", "Action", "Spec", "Store", "TestStore"]

  private var origins: [ObjectIdentifier: Origin] = [:]

  /// `returned`: the features the script returned; `loaded`: `package.loaded`'s features, by
  /// module name; `features`: every feature to name.
  init(
    script: String, roots: [String], returned: [FeatureDefinition], loaded: [(name: String, feature: FeatureDefinition)],
    features: [FeatureDefinition]
  ) {
    let scriptFile = Self.absolute(script)
    // What each file returns: the script, and the modules `require` loaded.
    var returnedBy: [String: [ObjectIdentifier]] = [scriptFile: returned.map(ObjectIdentifier.init)]
    for (name, feature) in loaded {
      guard let file = Self.moduleFile(name, roots: roots) else { continue }
      if !(returnedBy[file] ?? []).contains(ObjectIdentifier(feature)) { returnedBy[file, default: []].append(ObjectIdentifier(feature)) }
    }
    let knownFiles = returnedBy.keys.sorted()
    var taken: [String: ObjectIdentifier] = [:]
    for feature in features {
      let identity = ObjectIdentifier(feature)
      let (source, line) = Self.split(feature.definedAt)
      let file = Self.file(named: source, among: knownFiles)
      let module = file.map { Self.moduleName(of: $0, roots: roots) } ?? LuaAnnotation.nameSegment(
        URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent)
      let returned = file.map { returnedBy[$0] == [identity] } ?? false
      var namespace = module
      if !returned {
        let name = LuaAnnotation.nameSegment(feature.name)
        namespace += "." + (Self.reservedSuffixes.contains(name) ? name + "Feature" : name)
      }
      // Two features one file declares under one name: the later ones say where.
      if let other = taken[namespace], other != identity {
        var candidate = namespace + "_L\(line ?? 0)"
        var counter = 2
        while taken[candidate] != nil {
          candidate = namespace + "_L\(line ?? 0)_\(counter)"
          counter += 1
        }
        namespace = candidate
      }
      taken[namespace] = identity
      let shown = file.map(LuaTestDiscovery.relativeToCurrentDirectory) ?? source
      origins[identity] = Origin(
        file: file ?? source, location: line.map { "\(shown):\($0)" } ?? shown, module: module,
        namespace: namespace, returned: returned)
    }
  }

  func origin(of feature: FeatureDefinition) -> Origin { origins[ObjectIdentifier(feature)]! }

  // MARK: Files and modules

  static func absolute(_ path: String) -> String {
    let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
  }

  /// `file:line` → (file, line); Lua's short source may begin with `...` (cut to 60 characters).
  static func split(_ location: String) -> (String, Int?) {
    guard let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) else {
      return (location, nil)
    }
    return (String(location[..<colon]), line)
  }

  /// The file Lua named `source` (absolute); a source Lua cut (`...es/Counter.lua`) is the known
  /// file it ends with, nil when none or several do.
  static func file(named source: String, among known: [String]) -> String? {
    if source.hasPrefix("...") {
      let tail = String(source.dropFirst(3))
      let matches = known.filter { $0.hasSuffix(tail) }
      return matches.count == 1 ? matches[0] : nil
    }
    guard !source.hasPrefix("["), !source.hasPrefix("=") else { return nil }  // a chunk of text, not a file
    return absolute(source)
  }

  /// The file `require(name)` loads, found as relua's searcher finds it: `<root>/a/b.lua`, then
  /// `<root>/a/b/init.lua`, root by root.
  static func moduleFile(_ name: String, roots: [String]) -> String? {
    let relative = name.replacingOccurrences(of: ".", with: "/")
    for root in roots {
      for suffix in [".lua", "/init.lua"] {
        let path = absolute(root + "/" + relative + suffix)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { return path }
      }
    }
    return nil
  }

  /// The dotted name of a file under the outermost root holding it (`Features.Counter`; `a/init.lua` → `a`).
  static func moduleName(of file: String, roots: [String]) -> String {
    var relative = URL(fileURLWithPath: file).lastPathComponent
    for root in roots.map(absolute).sorted(by: { $0.count < $1.count }) where file.hasPrefix(root + "/") {
      relative = String(file.dropFirst(root.count + 1))
      break
    }
    if relative.hasSuffix(".lua") { relative = String(relative.dropLast(4)) }
    if relative.hasSuffix("/init") { relative = String(relative.dropLast(5)) }
    return relative.split(separator: "/").map { LuaAnnotation.nameSegment(String($0)) }.joined(separator: ".")
  }
}
