/// The Lua functions a test file declares its tests with: `test(name, fn)`, `describe(name, fn)` /
/// `it(name, fn)` (names joined with spaces), `pending(name)` and `skip(name[, fn])` (skipped).
/// Inside a running test, `pending(reason)` ends it as skipped, with the reason (busted's
/// `pending` in an `it`): for a test that cannot run here, saying why.
///
/// Run in every fresh test state before the file. `describe` bodies run at once, as in busted;
/// test bodies are only collected. Returns the list of declarations (`{ name, fn, skipped }` in
/// declaration order) and `seal()`, which the runner calls before running a test so that
/// declaring tests from inside a test body is a clear error.
enum LuaTestDeclarations {
  static let chunkName = "=[relua test]"

  /// What a `pending(reason)` inside a running test raises, before the reason.
  static let skipMarker = "\u{1}relua pending\u{1}"

  static let source = #"""
    local type, error, format, concat = type, error, string.format, table.concat
    local declared, prefix, sealed = {}, {}, false

    local function check(kind, name, fn, needsFunction)
      if sealed then error(format("%s() declares tests: call it at the top of a test file or inside describe", kind), 3) end
      if type(name) ~= "string" then
        error(format("bad argument #1 to '%s' (string expected, got %s)", kind, type(name)), 3)
      end
      if needsFunction and type(fn) ~= "function" then
        error(format("bad argument #2 to '%s' (function expected, got %s)", kind, type(fn)), 3)
      end
    end

    local function fullName(name)
      if #prefix == 0 then return name end
      return concat(prefix, " ") .. " " .. name
    end

    local function declare(kind, name, fn, skipped)
      check(kind, name, fn, not skipped)
      declared[#declared + 1] = { name = fullName(name), fn = fn, skipped = skipped }
    end

    function test(name, fn) declare("test", name, fn, false) end
    function it(name, fn) declare("it", name, fn, false) end
    function pending(name, fn)
      if sealed and fn == nil then error("\1relua pending\1" .. tostring(name), 0) end
      declare("pending", name, fn, true)
    end
    function skip(name, fn) declare("skip", name, fn, true) end

    function describe(name, fn)
      check("describe", name, fn, true)
      prefix[#prefix + 1] = name
      fn()
      prefix[#prefix] = nil
    end

    return declared, function() sealed = true end
    """#
}
