local v = relua.fromJSON('{"a":[1,2,{"b":null}],"c":1.5,"d":"\\u00e9"}')
print(relua.toJSON(v), relua.toJSON(v, true))
print(pcall(relua.fromJSON, "[1,null]"))
print(pcall(relua.toJSON, { 1, nil, 3 }))
print(pcall(relua.toJSON, { f = print }))
print(relua.uuid(3))
local t = relua.identified { { id = 1 }, { id = 2 } }
print(relua.toJSON(t))
