import Lua
import Composable
print("bench")
