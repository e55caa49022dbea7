// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "relua",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "relua", targets: ["relua"]),
    .library(name: "Composable", targets: ["Composable"]),
    .library(name: "Lua", targets: ["Lua"]),
    // relua in a Swift program of your own: ReluaRuntime, ReluaStore, ReluaDependency.
    .library(name: "Relua", targets: ["Relua"]),
    // Lua script tests run from Swift (ReluaRuntime.runTests): `relua test`'s runner.
    .library(name: "ReluaTesting", targets: ["ReluaTesting"]),
    .library(name: "ReluaGitHub", targets: ["ReluaGitHub"]),
    // relua.sharedKey("sqlite", …): a shared list that is the rows of a SQLite table (GRDB).
    .library(name: "ReluaSQLite", targets: ["ReluaSQLite"]),
    .library(name: "ReluaInspector", targets: ["ReluaInspector"]),
    // A Lua feature served as a web app (`relua app`): ReluaWebApp.start(serving: store).
    .library(name: "ReluaWebApp", targets: ["ReluaWebApp"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.0.0"),
    // `swift package generate-documentation` for the DocC catalogs (Scripts/test's docs stage): a
    // command plugin, never linked into a product (docs/DESIGN-NOTES.md, "Package and dependencies").
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // SQLite for the "sqlite" shared key (ReluaSQLite alone; Debian's libsqlite3-dev gives the
    // headers and the library). Its build cost: docs/DESIGN-NOTES.md, "Shared state: a database
    // behind a key".
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  // The layers (docs/DESIGN-NOTES.md, "Layers (the map)"; Scripts/check-layers holds them): a
  // target imports only what its line below allows, and nothing above it.
  //   CLua, CLuaShim, Lua       Lua 5.4 and its Swift layer; know nothing of relua. Only they, the
  //                             C shims (CReluaShim) and C targets import CLua/CLuaShim: what the
  //                             host needs raw is Lua's `package` LuaRawStack (#32).
  //   Composable                the engine (TCA's Store, reducers, effects): no Lua.
  //   GitHub, GitHubFake, LoopbackListener, WebSocket, WebSocketEcho
  //                             plain clients and servers: no relua.
  //   LoopbackWeb               a page served on loopback behind a token (HTTP, access rules, the
  //                             page's files, its WebSocket): LoopbackListener, WebSocket; no relua.
  //   Relua                     the library an embedder links: Lua, CReluaShim, Composable,
  //                             WebSocket, Clocks. Never CEditLine, ReluaConsole or the inspector.
  //   ReluaGitHub, ReluaWebSocketEcho, ReluaInspector, ReluaSQLite, ReluaWebApp
  //                             on Relua (public or `package` API); never CEditLine or ReluaConsole.
  //                             ReluaInspector and ReluaWebApp are served by LoopbackWeb, neither on the other.
  //                             ReluaSQLite (GRDB) is on Relua's public API only.
  //   ReluaTesting              `relua test` (the busted/luassert runner): Relua, Lua, Composable.
  //   ReluaTooling              `relua types` (LuaLS annotations): ReluaTesting and below.
  //   ReluaConsole              `relua repl` (lua.c's part): Relua, Lua, Composable, CEditLine —
  //                             the only target with libedit.
  //   relua                     the CLI: all of the above. relua-todo (an embedder): Relua and
  //                             ReluaInspector only, and its binary links no libedit.
  targets: [
    // liblua5.4 from Debian (liblua5.4-dev): headers only, no code. Linked statically (by
    // CLuaShim): calls into Lua and the VM itself run 10-20 % faster than through the shared
    // library's PLT and position-independent code.
    .systemLibrary(name: "CLua", providers: [.apt(["liblua5.4-dev"])]),
    // libedit (readline-compatible line editing) for `relua repl`: ReluaConsole's alone.
    .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    // The C shim: macros as functions, the protected trampoline for Swift functions. It links
    // Debian's static liblua5.4.a (a plain `-llua5.4` would take the shared library).
    .target(
      name: "CLuaShim", dependencies: ["CLua"],
      linkerSettings: [
        // Its API stays exported, for the C modules trusted scripts may `require` (they are built
        // against the interpreter's symbols, not a library of their own).
        .unsafeFlags([
          "-Xlinker", "-l:liblua5.4.a",
          // Lua `__gc` finalizers run in a coroutine of their own, under the count hook (shim.c,
          // "Finalizers under the budget"): lgc.o's lookup of a finalizer is wrapped.
          "-Xlinker", "--wrap=luaT_gettmbyobj",
          "-Xlinker", "--dynamic-list=\(Context.packageDirectory)/Sources/CLua/exported-symbols.list",
        ]),
        .linkedLibrary("m"), .linkedLibrary("dl"),
      ]),
    // Lua's Swift layer: the state, values, calls, limits. May import CLua and CLuaShim.
    .target(name: "Lua", dependencies: ["CLua", "CLuaShim"]),
    // relua's own C on the shim: the state views' metamethods and a reducer handler's call (the
    // Lua layer knows nothing of views).
    .target(name: "CReluaShim", dependencies: ["CLua", "CLuaShim"]),
    // The engine (TCA's Store, reducers, effects, the TestStore): no Lua.
    .target(
      name: "Composable",
      dependencies: [
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // The scripting host: Lua values and state views, the feature DSL over Composable, the test
    // runner, embedded stores and what an inspector reads of them. No REPL and no libedit: a Swift
    // program that embeds relua builds without them (the console is ReluaConsole's). Its own Lua
    // (the prelude, the test runner's chunks, the LuaLS API file…) is `.lua` files, its resources
    // (Lua/): luacheck lints them with the scripts (docs/DESIGN-NOTES.md).
    .target(
      name: "Relua",
      dependencies: [
        "Lua", "CReluaShim", "Composable", "WebSocket",
        .product(name: "Clocks", package: "swift-clocks"),
      ],
      resources: [.copy("Lua")]),
    // `relua test` (busted's and luassert's API): the runner, its reporters, coverage, the
    // watchdog, and its Lua (Lua/test_*.lua, its resources). The Lua TestStore stays in Relua, as
    // TCA's TestStore is in its library. An embedder links it only to run Lua tests from Swift.
    .target(name: "ReluaTesting", dependencies: ["Relua", "Lua", "Composable"], resources: [.copy("Lua")]),
    // `relua types` (editor tooling): the LuaLS annotations generated from a feature's
    // declarations, and the API file they start from (Lua/types_api.lua, its resource). On Relua's
    // `package` members; an embedder does not link it.
    .target(name: "ReluaTooling", dependencies: ["Relua", "ReluaTesting", "Lua", "Composable"], resources: [.copy("Lua")]),
    // `relua repl` (lua.c's part, outside the library): the console session, feature mode, the
    // line reader (libedit: the only CEditLine user), Ctrl-C. On Relua's `package` members.
    .target(name: "ReluaConsole", dependencies: ["Relua", "Lua", "Composable", "CEditLine"]),
    // deps.github as a plug-in: the repository search registered through Relua's public
    // dependency API (the CLI wires it in).
    .target(name: "ReluaGitHub", dependencies: ["Relua", "GitHub"]),
    // relua.sharedKey("sqlite", { path = …, table = … }) as a plug-in: a shared list that is the
    // rows of a SQLite table, through GRDB, registered with Relua's public shared-key API (the
    // CLI wires it in). The only target that links SQLite.
    .target(name: "ReluaSQLite", dependencies: ["Relua", .product(name: "GRDB", package: "GRDB.swift")]),
    // GitHub's repository search: the live client (URLSession) and a loopback fake server.
    .target(name: "GitHub"),
    // The recorded API bodies are its resources (Sources/GitHubFake/Fixtures): the one copy.
    .target(name: "GitHubFake", dependencies: ["LoopbackListener"], resources: [.copy("Fixtures")]),
    // The loopback servers' common part: a TCP listener on 127.0.0.1, a thread per connection (at
    // most so many at once, if asked: the inspector's 32).
    .target(name: "LoopbackListener"),
    // A WebSocket client (RFC 6455, ws:// only) on POSIX sockets, the framing a server reads
    // with (masked frames in, a declared-length limit, read deadlines: the inspector's), and a
    // loopback echo server for tests and demos (no SwiftNIO: docs/DESIGN-NOTES.md).
    .target(name: "WebSocket"),
    .target(name: "WebSocketEcho", dependencies: ["WebSocket", "LoopbackListener"]),
    // A page served on 127.0.0.1 behind a token: a request's head read and answered, the access
    // rules (token, Host, a WebSocket's Origin), the page's files with their CSP, the page's
    // WebSocket and what it may cost (limits). Knows nothing of relua: the inspector and
    // `relua app` are both served by it (docs/DESIGN-NOTES.md, "Inspector", "Web app").
    .target(name: "LoopbackWeb", dependencies: ["LoopbackListener", "WebSocket"]),
    // relua.testing.websocketEcho() as a plug-in: the echo server registered through Relua's
    // test-helper API (the CLI and the Swift test suite wire it in; Relua knows no server).
    .target(name: "ReluaWebSocketEcho", dependencies: ["Relua", "WebSocketEcho"]),
    // `relua repl --inspect`: the REPL's store live in a browser, served on 127.0.0.1 behind a
    // token (Relua knows no server: it tells `ConsoleEvent`s; the CLI wires this in). The page is
    // plain HTML, CSS and JavaScript, its resources (Page/). Served by LoopbackWeb (relua's own
    // listener and WebSocket framing, as `relua app`), not a server package: a page's message must be refused by its declared
    // length before it is read, which FlyingFox could not do (docs/DESIGN-NOTES.md, "Inspector").
    .target(
      name: "ReluaInspector",
      dependencies: ["Relua", "Composable", "LoopbackListener", "LoopbackWeb", "WebSocket"],
      resources: [.copy("Page")]),
    // `relua app`: a feature's screens as a web page, an embedder on Relua's public API served by
    // LoopbackWeb (the listener, access rules and WebSocket connection the inspector has too;
    // docs/DESIGN-NOTES.md, "Web app").
    .target(
      name: "ReluaWebApp",
      dependencies: ["Relua", "LoopbackListener", "LoopbackWeb", "WebSocket"],
      resources: [.copy("Page")]),
    // The CLI (`relua run`, `repl`, `test`, `types`): may import every layer above.
    .executableTarget(
      name: "relua",
      dependencies: ["Lua", "Composable", "Relua", "ReluaConsole", "ReluaTesting", "ReluaTooling", "ReluaGitHub", "ReluaSQLite", "ReluaWebSocketEcho", "ReluaInspector", "ReluaWebApp", "GitHub", "GitHubFake", "WebSocketEcho", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    // An example of relua embedded in a Swift program: a terminal to-do list whose logic is a
    // Lua feature and whose storage is a Swift dependency (Scripts/test drives it).
    .executableTarget(
      name: "relua-todo", dependencies: ["Relua", "ReluaTesting", "ReluaInspector"], path: "Examples/relua-todo",
      exclude: ["Todo.lua", "todo_test.lua"]),
    // The floor of `lua.send`'s shape in plain C (no relua): what the Lua VM alone costs.
    .target(name: "CBenchmarkFloor", dependencies: ["CLua"], path: "Benchmarks/CBenchmarkFloor"),
    .executableTarget(
      name: "relua-bench",
      dependencies: ["Lua", "Composable", "Relua", "CBenchmarkFloor"],
      path: "Benchmarks/relua-bench"
    ),
    // Fuzzing (Scripts/fuzz): libFuzzer's driver if it is linked in (a weak symbol), and the targets.
    .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
    .executableTarget(
      name: "relua-fuzz",
      dependencies: ["Lua", "Composable", "Relua", "ReluaTesting", "ReluaGitHub", "ReluaInspector", "ReluaWebApp", "LoopbackWeb", "WebSocket", "CFuzzDriver"],
      path: "Fuzz/relua-fuzz"
    ),
    .testTarget(name: "LuaTests", dependencies: ["Lua", "CLua", "CLuaShim"]),
    .testTarget(
      name: "ComposableTests",
      dependencies: [
        "Composable",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    // Tooling/Golden: what `relua types` writes for the shipped features, read from the source tree.
    .testTarget(
      name: "ReluaTests",
      dependencies: ["Relua", "ReluaTesting", "ReluaTooling", "Composable", "ReluaGitHub", "ReluaSQLite", "ReluaWebSocketEcho", "Lua", "GitHub", "GitHubFake", "WebSocket", "WebSocketEcho", .product(name: "Clocks", package: "swift-clocks")],
      exclude: ["Tooling/Golden"]),
    .testTarget(name: "CLITests", dependencies: ["relua", "WebSocketEcho"]),
    .testTarget(name: "GitHubTests", dependencies: ["GitHub", "GitHubFake"]),
    // The sqlite shared key against real database files (a store's sends read back with GRDB, a
    // second connection's change, a corrupt file).
    .testTarget(
      name: "ReluaSQLiteTests",
      dependencies: ["ReluaSQLite", "Relua", "ReluaTesting", .product(name: "GRDB", package: "GRDB.swift")]),
    .testTarget(name: "WebSocketTests", dependencies: ["WebSocket", "WebSocketEcho"]),
    // The console itself: sessions of `relua repl` driven in-process (ReluaConsole's internals).
    .testTarget(name: "ReluaConsoleTests", dependencies: ["ReluaConsole", "Relua", "ReluaTesting", "Lua", "Composable"]),
    // The inspector: its access rules over HTTP and WebSocket, and a real REPL session feeding it.
    .testTarget(name: "ReluaInspectorTests", dependencies: ["ReluaInspector", "Relua", "ReluaTesting", "ReluaConsole", "Lua", "Composable", "WebSocket"]),
    // `relua app`'s server: a page's messages decoded and checked, controls worked, bad ones answered.
    // Features/: the Lua features its tests load from the source tree.
    .testTarget(name: "ReluaWebAppTests", dependencies: ["ReluaWebApp", "Relua", "WebSocket"], exclude: ["Features"]),
  ]
)
