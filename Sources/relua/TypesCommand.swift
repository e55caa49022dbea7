import ArgumentParser
import Composable
import Foundation
import Lua
import Relua
import ReluaTooling

/// `relua types [-o DIR] [FEATURE.lua|DIR …]`: lua-language-server annotations for relua's API and
/// for feature scripts (see `LuaTypesGenerator`).
struct TypesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "types",
    abstract: "Write lua-language-server annotations (---@meta files) for relua's API and feature scripts.",
    discussion: """
      Writes DIR/relua.lua, relua's Lua API (the DSL, stores, test stores, deps, the globals of \
      relua test), and for the features the scripts return, and the children reachable from them, \
      one file per module: DIR/Features.GuessingGame.lua declares Features.GuessingGame (the \
      feature), .State (its state, typed from its initial state), .Action (every action path its \
      stores accept, with payload types), .Store and .TestStore (send, receive and state typed), \
      and is what `require "Features.GuessingGame"` gives in the editor. Point lua-language-server \
      at DIR (workspace.library in .luarc.json).
      A directory stands for the *.lua files under it (not *_test.lua or *_spec.lua). Each script \
      runs as `relua run` runs it (sandboxed, require finding modules beside it and in the \
      repository's Scripts), without its REPL; one that raises or returns no feature is an error \
      (FILE:LINE, exit status 1) and nothing is written. Give every feature script in one run: \
      relua.lua's overloads of relua.Store and relua.TestStore name the features of the run. \
      Files in DIR that relua types wrote and no longer writes are removed; a file it did not \
      write is never replaced.
      """
  )

  @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
    "The directory to write into (made if missing).", valueName: "DIR"))
  var output = "types"

  @OptionGroup var sandbox: SandboxOptions

  @Argument(help: "Feature scripts, or directories of them.")
  var scripts: [String] = []

  @MainActor
  func run() async throws {
    let files: [LuaTypesGenerator.File]
    var scriptCount = 0
    let generator = LuaTypesGenerator()
    do {
      let scriptFiles = try Self.scriptFiles(scripts)
      scriptCount = scriptFiles.count
      var options = sandbox.luaOptions(scriptRoots: [])
      options.memoryLimit = sandbox.memoryLimit ?? ReluaRuntime.defaultMemoryLimit
      options.instructionLimit = sandbox.instructionLimit ?? ReluaRuntime.defaultInstructionLimit
      for script in scriptFiles { try await generator.add(script: script, options: options) }
      files = generator.files()
      try Self.write(files, into: output)
    } catch let error as LuaError {
      FileHandle.standardError.write(Data((ScriptFailure(error).text + "\n").utf8))
      throw ExitCode.failure
    } catch let error as ReluaError {
      FileHandle.standardError.write(Data(("relua: " + Elision.standard.cut(text: error.fullDescription) + "\n").utf8))
      throw ExitCode.failure
    } catch let failure as LuaTypesGenerator.Failure {
      FileHandle.standardError.write(Data(("relua: " + Elision.standard.cut(text: failure.description) + "\n").utf8))
      throw ExitCode.failure
    } catch {
      FileHandle.standardError.write(Data("relua types: \(error)\n".utf8))
      throw ExitCode.failure
    }
    let features = generator.featureCount
    print("relua types: wrote \(files.count) file(s) to \(output) (relua's API, \(features) feature(s) from \(scriptCount) script(s))")
  }

  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  /// The scripts the arguments name: files as they are, directories as their `*.lua` files
  /// (sorted, tests left out).
  static func scriptFiles(_ paths: [String]) throws -> [String] {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw Refusal(description: "\(path): no such file or directory")
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let found = (FileManager.default.subpaths(atPath: path) ?? [])
        .filter { $0.hasSuffix(".lua") && !LuaTestDiscovery.suffixes.contains(where: $0.hasSuffix) }
        .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
        .filter { file in
          var isDirectory: ObjCBool = false
          return FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        .sorted()
      if found.isEmpty { throw Refusal(description: "\(path): no .lua files in it (tests aside)") }
      files += found
    }
    var seen = Set<String>()
    return files.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
  }

  /// Writes `files` into `directory`: replaces the files `relua types` wrote, removes those of
  /// them it no longer writes, and refuses to touch any other file.
  static func write(_ files: [LuaTypesGenerator.File], into directory: String) throws {
    let manager = FileManager.default
    try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    func path(_ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }
    func isGenerated(_ name: String) -> Bool {
      guard let handle = FileHandle(forReadingAtPath: path(name)) else { return false }
      defer { try? handle.close() }
      let start = String(decoding: handle.readData(ofLength: 400), as: UTF8.self)
      return start.split(separator: "\n").dropFirst().first?.hasPrefix(LuaTypesWriter.marker) ?? false
    }
    for file in files where manager.fileExists(atPath: path(file.name)) && !isGenerated(file.name) {
      throw Refusal(description: "\(path(file.name)) exists and relua types did not write it; it is left as it is and nothing was written")
    }
    let written = Set(files.map(\.name))
    let stale = (try manager.contentsOfDirectory(atPath: directory))
      .filter { $0.hasSuffix(".lua") && !written.contains($0) && isGenerated($0) }
    for file in files { try Data(file.text.utf8).write(to: URL(fileURLWithPath: path(file.name))) }
    for name in stale { try manager.removeItem(atPath: path(name)) }
  }
}
