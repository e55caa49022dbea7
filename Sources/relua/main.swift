import Lua
print("lua", LuaVersion.number)
