-- A small real suite for `relua test`: plain Lua behaviour and the runner's assertion helpers.
-- Run it with `Scripts/relua test Scripts/Tests`.

test("arithmetic keeps integers and floats apart", function()
  assert_equal(7 // 2, 3)
  assert_equal(math.type(7 // 2), "integer")
  assert_equal(math.type(7 / 2), "float")
  expect(2 ^ 10).to_be(1024.0)
end)

test("strings", function()
  expect(("relua"):upper()).to_be("RELUA")
  expect(("a,b,c"):gsub(",", ";")).to_be("a;b;c")
  assert(("hello"):find("ll") == 3)
end)

describe("assert_equal", function()
  it("compares plain tables deeply", function()
    assert_equal({ 1, 2, { x = "y" } }, { 1, 2, { x = "y" } })
    expect({ name = "counter", tags = { "a", "b" } }).to_be({ tags = { "a", "b" }, name = "counter" })
  end)

  it("explains a mismatch with the values", function()
    local ok, message = pcall(assert_equal, 4, 3)
    assert(not ok)
    expect(message).to_be("expected 3, got 4")
    local _, tableMessage = pcall(assert_equal, { 1, 2 }, { 1, 3 }, "pairs")
    expect(tableMessage).to_be("pairs: expected { 1, 3 }, got { 1, 2 }")
  end)

  it("handles cycles", function()
    local a, b = { name = "a" }, { name = "a" }
    a.self, b.self = a, b
    assert_equal(a, b)
  end)
end)

describe("expect", function()
  it("checks errors", function()
    expect(function() error("nope") end).to_error("nope")
    expect(function() error({}) end).to_error()
  end)

  it("negates and checks nil", function()
    expect(1).not_to_be(2)
    expect(nil).to_be_nil()
    expect({}):to_be_truthy()
  end)
end)

describe("isolation", function()
  -- luacheck: globals leaked (a global on purpose: the next test shows it did not leak)
  it("sets a global", function()
    leaked = true
    assert_equal(leaked, true)
  end)

  it("starts from a fresh state", function()
    assert_equal(leaked, nil)
  end)
end)

test("coroutines of the script itself still work", function()
  local numbers = coroutine.wrap(function()
    for i = 1, 3 do coroutine.yield(i) end
  end)
  assert_equal({ numbers(), numbers(), numbers() }, { 1, 2, 3 })
end)

pending("a test to write later")
