-- luassert's spy methods (luassert 1.9.0's spy.lua, which its own specs do not cover):
-- s:called([n[, compare]]), s:called_with(args), s:returned_with(args), each saying whether it
-- holds and then the count, or the matching (else the last) call's values.

describe("luassert's spy methods", function()
  it("called: at least once, or n times, or as compare says; then the count", function()
    local s = spy.new(function(x) return x * 2 end)
    assert.same({ false, 0 }, { s:called() })
    s(2)
    s(3)
    assert.same({ true, 2 }, { s:called() })
    assert.same({ true, 2 }, { s:called(2) })
    assert.same({ false, 2 }, { s:called(3) })
    assert.is_true((s:called(1, function(count, expected) return count > expected end)))
  end)

  it("called_with and returned_with take a list, matchers too", function()
    local s = spy.new(function(x) return x * 2 end)
    s(2)
    s(3)
    assert.same({ true, { n = 1, 2 } }, { s:called_with({ 2 }) })
    assert.same({ false, { n = 1, 3 } }, { s:called_with({ 9 }) })
    assert.is_true((s:called_with({ match.is_number() })))
    assert.is_true((s:returned_with({ 6 })))
    assert.same({ false, { n = 1, 6 } }, { s:returned_with({ 7 }) })
    assert.same({ false }, { spy.new():called_with({}) })
  end)
end)
