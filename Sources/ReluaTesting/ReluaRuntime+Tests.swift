import Relua

extension ReluaRuntime {
  /// Runs Lua test files (`*_test.lua`, `*_spec.lua` under `paths`), each test in a fresh sandboxed state as
  /// `relua test` runs them, with the dependencies registered for every state
  /// (`ReluaHost.registerForEveryState`).
  public static func runTests(
    paths: [String], configuration: LuaTestConfiguration = LuaTestConfiguration(),
    reporter: any LuaTestReporter = LuaTestSilentReporter()
  ) async -> LuaTestSummary {
    await LuaTestRunner(configuration: configuration).run(paths: paths, reporter: reporter)
  }
}
