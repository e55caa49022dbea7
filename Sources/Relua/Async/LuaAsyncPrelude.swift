/// The Lua half of the coroutine driver, run once per state by `LuaCoroutineDriver`.
///
/// It lives in Lua because the checks and the error belong at the script's call site: an
/// awaitable raises with `error(message, 2)`, so the message and the traceback name the script
/// line that awaited, and the yield itself happens in Lua/C, never across a Swift frame.
///
/// Returns: `spawn(fn) -> thread`, `awaitable(name, start) -> function`, `where(thread) -> "src:line", traceback`.
enum LuaAsyncPrelude {
  static let chunkName = "=[relua async]"

  static let source = #"""
    local create, running, isyieldable = coroutine.create, coroutine.running, coroutine.isyieldable
    local error, format, setmetatable = error, string.format, setmetatable
    local traceback = debug and debug.traceback

    -- Coroutines the driver runs (weak keys: a finished coroutine is collected as usual).
    local driven = setmetatable({}, { __mode = "k" })

    local function spawn(fn)
      local co = create(fn)
      driven[co] = true
      return co
    end

    -- What an awaitable's `start` returns when its coroutine is resumed: its results, or its error
    -- raised at the line that awaited (level 2: `finish` is a tail call of the awaitable, so the
    -- awaitable's caller is the next level). No table per await.
    local function finish(ok, ...)
      if ok then return ... end
      error((...), 2)
    end

    -- Wraps the Swift `start` function of an awaitable. `start` registers the Swift operation and
    -- yields (marker, token) from C; the driver resumes it with (true, results...) or (false, message).
    local function awaitable(name, start)
      local outside = format("'%s' is asynchronous: call it inside Effect.run (or a test body)", name)
      local blocked = format("'%s' is asynchronous and cannot wait here: a Swift call between it and its coroutine cannot be suspended", name)
      local nested = format("'%s' is asynchronous and cannot wait inside a coroutine of the script's own (coroutine.create or wrap): only the effect's (or test's) own coroutine can wait; call it there, outside the nested one", name)
      return function(...)
        local co, main = running()
        if main then error(outside, 2) end
        if not driven[co] then error(nested, 2) end
        if not isyieldable() then error(blocked, 2) end
        return finish(start(...))
      end
    end

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

    return spawn, awaitable, where
    """#
}
