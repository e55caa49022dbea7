/// How a `LuaState` is set up.
public struct LuaOptions {
  /// Opens the full standard library. Off by default: scripts are untrusted and sandboxed (no `io`,
  /// no `os.execute`/`exit`/`getenv`/`remove`/`rename`/`tmpname`/`setlocale`, `debug` reduced to
  /// `traceback`, no `package.loadlib`, C searchers, `dofile`, `loadfile`, `string.dump`; `load`
  /// accepts text chunks only; `collectgarbage` limited to collect/count/step/isrunning).
  public var trusted: Bool
  /// Bytes the state may allocate. Past it, an allocation is a Lua memory error; the state stays usable.
  /// nil: Lua's heap is bounded by `LuaState.memoryCeiling` instead (derived from what the process
  /// may still allocate), so running out of memory is a Lua error all the same.
  public var memoryLimit: Int?
  /// Lua VM instructions allowed per top-level call from Swift (coroutine resumes included).
  public var instructionLimit: Int?
  /// Counts `instructionLimit` over all top-level calls together (see `LuaState.sharesInstructionBudget`).
  public var sharesInstructionBudget: Bool
  /// Installs the count hook even without an instruction limit so `interrupt()` can stop a script.
  public var interruptible: Bool
  /// Directories `require "a.b"` may load `a/b.lua` or `a/b/init.lua` from.
  public var scriptRoots: [String]
  /// Receives Lua warnings (`warn(...)`, errors in `__gc` finalizers). Default: standard error.
  /// Must not call back into the Lua state.
  public var warningHandler: ((String) -> Void)?
  /// Receives each line Lua's `print` writes (without the newline). Default: standard output.
  /// Must not call back into the Lua state.
  public var print: ((String) -> Void)?
  /// Counts the lines of Lua files this state runs, into this coverage (added when the state
  /// closes). nil: no line hook is installed, and nothing is counted.
  public var coverage: LuaCoverage?
  /// Loads a text chunk compiled before in this process (same chunk name, same text, in any state
  /// that shares chunks) from its bytecode instead of parsing it again: for hosts that make many
  /// states running the same code, as a test runner's fresh state per test. Scripts never load
  /// bytecode themselves; the cache holds only what relua compiled.
  public var sharesCompiledChunks: Bool
  /// Whether warnings (`warn`, errors in finalizers) are shown from the start. On by default;
  /// lua.c starts with them off (`-W` or `warn "@on"` turns them on).
  public var warnsByDefault = true
  /// lua.c's `-E`: `package.path` and `package.cpath` ignore LUA_PATH and LUA_CPATH (trusted
  /// states; a sandboxed one reads no environment anyway).
  public var ignoresEnvironment = false
  /// lua.c's Ctrl-C: an interrupt raises "interrupted!" once, which `pcall` may catch; only a
  /// second one cannot be caught. Off by default: every interrupt stops the code, `pcall` or not.
  public var interruptsAreCatchable = false
  /// lua.c's message handler: an error object that is not a string or a number and has no
  /// `__tostring` is described as `(error object is a table value)`. Off by default: as `tostring`
  /// (`table: 0x…`).
  public var namesErrorObjectsByType = false

  /// Options for a state; the defaults make a sandboxed state with no limits beyond the memory
  /// ceiling.
  public init(
    trusted: Bool = false,
    memoryLimit: Int? = nil,
    instructionLimit: Int? = nil,
    sharesInstructionBudget: Bool = false,
    interruptible: Bool = false,
    scriptRoots: [String] = [],
    warningHandler: ((String) -> Void)? = nil,
    print: ((String) -> Void)? = nil,
    coverage: LuaCoverage? = nil,
    sharesCompiledChunks: Bool = false
  ) {
    self.trusted = trusted
    self.memoryLimit = memoryLimit
    self.instructionLimit = instructionLimit
    self.sharesInstructionBudget = sharesInstructionBudget
    self.interruptible = interruptible
    self.scriptRoots = scriptRoots
    self.warningHandler = warningHandler
    self.print = print
    self.coverage = coverage
    self.sharesCompiledChunks = sharesCompiledChunks
  }
}
