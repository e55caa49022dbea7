import ArgumentParser
import Lua

/// The flags every command that runs scripts shares: sandbox and limits.
struct SandboxOptions: ParsableArguments {
  @Flag(help: "Open the full standard library (io, os, debug, C modules). Scripts are sandboxed by default.")
  var trusted = false

  @Option(name: .customLong("memory-limit"), help: ArgumentHelp("Bytes the Lua state may allocate.", valueName: "bytes"))
  var memoryLimit: Int?

  @Option(name: .customLong("instruction-limit"), help: ArgumentHelp("Lua VM instructions a script may run.", valueName: "n"))
  var instructionLimit: Int?

  func validate() throws {
    if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit must be a positive number of bytes") }
    if let instructionLimit, instructionLimit <= 0 { throw ValidationError("--instruction-limit must be positive") }
  }

  func luaOptions(scriptRoots: [String]) -> LuaOptions {
    LuaOptions(
      trusted: trusted, memoryLimit: memoryLimit, instructionLimit: instructionLimit,
      scriptRoots: scriptRoots)
  }
}
