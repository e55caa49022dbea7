-- The smallest relua script: `Scripts/relua run Scripts/hello.lua [NAME]`.
-- Scripts run sandboxed: no io, no os.execute, no loading of binary chunks.
local name = ... or "world"
print(("Hello, %s! This is %s inside relua."):format(name, _VERSION))

local squares = {}
for i = 1, 5 do squares[#squares + 1] = i * i end
print("squares: " .. table.concat(squares, ", "))
