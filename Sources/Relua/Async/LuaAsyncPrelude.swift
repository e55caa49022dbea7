/// The Lua half of the coroutine driver, run once per state by `LuaCoroutineDriver`.
///
/// Awaitables themselves are C (`relua_pushawaitable`): they check where they run, call their
/// Swift half and yield, and raise a failed await's message at the script line that awaited; the
/// yield happens in C, never across a Swift frame.
///
/// Returns: `spawn(fn) -> thread`, `where(thread) -> "src:line", traceback`.
enum LuaAsyncPrelude {
  static let chunkName = "=[relua async]"

  static let source = #"""
    local create = coroutine.create
    local traceback = debug and debug.traceback

    -- Where a suspended (or failed) coroutine stands: the first `source:line` of its traceback,
    -- and the traceback.
    local function where(co)
      if not traceback then return nil end
      local text = traceback(co, nil, 0)
      for line in text:gmatch("[^\n]+") do
        local at = line:match("^%s*([^%[%s][^:]*:%d+):")
        if at then return at, text end
      end
      return nil, text
    end

    return create, where
    """#
}
