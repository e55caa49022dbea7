local t = {}
for i = 1, 10 do t[i] = i * i end
print(table.concat(t, ","), select("#", ...), arg[0])
print(pcall(load, "return 1"), pcall(require, "nope"))
print(string.format("%q", 1/3), math.type(1), math.type(1.0))
