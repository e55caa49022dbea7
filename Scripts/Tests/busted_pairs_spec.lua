-- Tests declared in a pairs() loop, as real suites declare them: every test runs in a fresh Lua
-- state that loads the file again, where pairs() walks the keys in another order (strings hash
-- with each state's own seed). relua test finds each test by its name (and its place among tests
-- of the same name), so each runs its own body, whatever the order.

local squares = {}
for i = 1, 64 do squares["n" .. i] = i * i end

describe("tests declared in a pairs() loop", function()
  for name, square in pairs(squares) do
    it("squares " .. name, function()
      local n = tonumber(name:sub(2))
      assert.are.equal(n * n, square)
    end)
  end

  -- Two tests of one name, in a pairs() order too: each found by its place among the two.
  local twins = { first = 1, second = 2 }
  local order = {}
  for key in pairs(twins) do order[#order + 1] = key end
  table.sort(order)
  for _, key in ipairs(order) do
    it("a twin", function() assert.is_true(twins[key] == 1 or twins[key] == 2) end)
  end
end)
