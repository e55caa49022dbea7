# Shared by Scripts/relua and Scripts/test: make sure the system has what relua
# builds against, then build. Sourced, not run.

RELUA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Debian packages relua needs, and the file that shows each one is installed.
relua_required_packages=(
  "liblua5.4-dev:/usr/include/lua5.4/lua.h"
  "libedit-dev:/usr/include/editline/readline.h"
  "pkg-config:/usr/bin/pkg-config"
  # SQLite's headers and library, for GRDB (the sqlite shared key, ReluaSQLite).
  "libsqlite3-dev:/usr/include/sqlite3.h"
)
# What Scripts/test needs besides: luacheck (Debian's lua-check) for the Lua scripts' lint,
# genhtml (Debian's lcov) to render relua test --coverage's tracefile, headless Chromium with
# its driver and Selenium (for /usr/bin/python3) to test the inspector's page in a real browser,
# and penlight (Debian's lua-penlight), which luassert's own specs require (Tests/luassert).
relua_test_packages=(
  "lua-check:/usr/bin/luacheck"
  "lua-penlight:/usr/share/lua/5.4/pl/tablex.lua"
  "lcov:/usr/bin/genhtml"
  "chromium:/usr/bin/chromium"
  "chromium-driver:/usr/bin/chromedriver"
  "python3-selenium:/usr/lib/python3/dist-packages/selenium/__init__.py"
)

# Installs what is missing of relua_required_packages and of the entries given (as above).
relua_ensure_system_packages() {
  local missing=() entry
  for entry in "${relua_required_packages[@]}" "$@"; do
    [[ -e "${entry#*:}" ]] || missing+=("${entry%%:*}")
  done
  ((${#missing[@]} == 0)) && return 0
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "relua: installing ${missing[*]} …" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "relua: missing system packages: ${missing[*]}" >&2
    echo "Install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
}

relua_ensure_swift() {
  if ! command -v swift >/dev/null; then
    [[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
  fi
  if ! command -v swift >/dev/null; then
    echo "relua: Swift 6 is required (https://www.swift.org/install/linux/)" >&2
    exit 1
  fi
}
