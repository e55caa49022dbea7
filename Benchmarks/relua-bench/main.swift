import Foundation
import Composable
import Lua

// relua-bench: the engine's and the Lua layer's benchmarks, medians over repeated samples.
// Usage: relua-bench [--json] [--filter PREFIX] [--samples N]
// `relua.startup` (and `relua.startup.repl`) launch the `relua` binary built beside this one
// (`swift build -c release`); with RELUA_BENCH_BASELINE=/path/to/an/older/relua, that one too, in
// alternating launches, as `relua.startup.baseline` (`….repl.baseline`), with their ratio.

// As the relua command line does (see `MainSerialExecutor`).
MainSerialExecutor.acquire()

let suite = BenchmarkSuite()
registerEngineBenchmarks(suite)
registerLuaBenchmarks(suite)
registerReluaBenchmarks(suite)

await suite.main(
  ratios: [
    ("swift.send / swift.direct", "swift.send", "swift.direct", 100),
    ("forEach 100000 / 100", "swift.forEach.100000", "swift.forEach.100", 2),
    ("depth 10 / depth 1", "swift.depth.10", "swift.depth.1", 3),
    ("lua.send / lua.pcall.raw", "lua.send", "lua.pcall.raw", 6),
    ("lua.send.floor / lua.pcall.raw", "lua.send.floor", "lua.pcall.raw", nil),
    ("lua.send.floor.swift / lua.pcall.raw", "lua.send.floor.swift", "lua.pcall.raw", nil),
    ("lua.forEach 100000 / 100", "lua.forEach.100000", "lua.forEach.100", 2),
  ],
  extra: { filter in
    func wanted(_ name: String) -> Bool { benchmarkMatches(name, filter) }
    var results: [BenchmarkSuite.Result] = []
    if wanted("swift.effect.roundtrip") {
      var samples: [Double] = []
      for _ in 0..<7 { samples.append(await measureEffectRoundTrip(iterations: 2_000)) }
      samples.sort()
      results.append(.init(name: "swift.effect.roundtrip", median: samples[3], p10: samples[1], p90: samples[5]))
    }
    if wanted("lua.effect.roundtrip") {
      var samples: [Double] = []
      for _ in 0..<7 { samples.append(await measureLuaEffectRoundTrip(iterations: 2_000)) }
      samples.sort()
      results.append(.init(name: "lua.effect.roundtrip", median: samples[3], p10: samples[1], p90: samples[5]))
    }
    for count in [100, 10_000] where wanted("lua.effects.\(count)") {
      var samples: [Double] = []
      for _ in 0..<3 { samples.append(await measureLuaEffectsAsleep(count: count)) }
      samples.sort()
      results.append(.init(name: "lua.effects.\(count)", median: samples[1], p10: samples[0], p90: samples[2]))
    }
    if wanted("lua.effect.memory") {
      let bytes = await measureLuaEffectMemory(count: 10_000)
      results.append(.init(name: "lua.effect.memory", median: bytes / 1024, p10: bytes / 1024, p90: bytes / 1024, unit: "KB"))
    }
    if wanted("lua.effects.cancelled") {
      let outcome = await measureLuaEffectsCancelled(count: 100_000)
      results.append(.init(name: "lua.effects.cancelled", median: outcome.megabytes, p10: outcome.megabytes, p90: outcome.megabytes, unit: "MB"))
      if !outcome.referencesBack { FileHandle.standardError.write(Data("lua.effects.cancelled: registry references did not return to their baseline\n".utf8)) }
    }
    if wanted("lua.memory.1M") {
      let memory = measureSendMemory()
      results.append(.init(name: "lua.memory.1M", median: memory.megabytes, p10: memory.megabytes, p90: memory.megabytes, unit: "MB"))
      if !memory.referencesBack { FileHandle.standardError.write(Data("lua.memory.1M: registry references did not return to their baseline\n".utf8)) }
    }
    let relua = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("relua").path
    let baseline = ProcessInfo.processInfo.environment["RELUA_BENCH_BASELINE"].flatMap { $0.isEmpty ? nil : $0 }
    for (name, repl) in [("relua.startup", false), ("relua.startup.repl", true)] where wanted(name) {
      guard let measured = measureStartup(binaries: [relua] + (baseline.map { [$0] } ?? []), repl: repl) else { continue }
      for (suffix, startup) in zip(["", ".baseline"], measured) {
        results.append(.init(name: name + suffix, median: startup.median, p10: startup.p10, p90: startup.p90, unit: "ms"))
      }
      if measured.count == 2 {
        FileHandle.standardError.write(Data(String(format: "%@ / baseline: %.3f\n", name, measured[0].median / measured[1].median).utf8))
      }
    }
    return results
  })
