import Foundation
import Composable
import Lua

// relua-bench: the engine's and the Lua layer's benchmarks, medians over repeated samples.
// Usage: relua-bench [--json] [--filter PREFIX[,PREFIX…]] [--samples N] (a filter ending in `$`: that name exactly)
// `relua.startup` (and `relua.startup.repl`) launch the `relua` binary built beside this one
// (`swift build -c release`); with RELUA_BENCH_BASELINE=/path/to/an/older/relua, that one too, in
// alternating launches, as `relua.startup.baseline` (`….repl.baseline`), with their ratio.
// The effect figures are printed with their ratio to a `baseline.*` measured beside them (#32,
// BaselineBenchmarks.swift); `--json` gives it as `baseline`, `ratio`, `ratio_p10`, `ratio_p90`.

// As the relua command line does (see `MainSerialExecutor`).
MainSerialExecutor.acquire()

let suite = BenchmarkSuite()
registerEngineBenchmarks(suite)
registerLuaBenchmarks(suite)
registerReluaBenchmarks(suite)
registerSharedBenchmarks(suite)
registerViewBenchmarks(suite)

await suite.main(
  ratios: [
    ("swift.send / swift.direct", "swift.send", "swift.direct", 100),
    ("forEach 100000 / 100", "swift.forEach.100000", "swift.forEach.100", 2),
    ("depth 10 / depth 1", "swift.depth.10", "swift.depth.1", 3),
    ("lua.send / lua.pcall.raw", "lua.send", "lua.pcall.raw", 6),
    ("lua.send.floor / lua.pcall.raw", "lua.send.floor", "lua.pcall.raw", nil),
    ("lua.send.floor.swift / lua.pcall.raw", "lua.send.floor.swift", "lua.pcall.raw", nil),
    ("lua.forEach 100000 / 100", "lua.forEach.100000", "lua.forEach.100", 2),
    ("shared write seen by 100 / plain write", "lua.shared.100", "lua.shared.plain", 2),
    ("shared write seen by 100 / the 100 copies written by hand", "lua.shared.100", "lua.shared.100.byHand", nil),
    ("fileStorage 10000 / inMemory 10000", "lua.fileStorage.10000", "lua.inMemory.10000", 1.2),
    ("inMemory 10000 / unshared 10000", "lua.inMemory.10000", "lua.unshared.10000", nil),
    ("view read + diff of 1000 rows / its send", "views.render.1000", "views.send.1000", nil),
    ("view of 1000 forEach rows, read + diff / its send", "views.render.1000.forEach", "views.send.1000", 10),
    ("view read of 1000 rows / its send", "views.read.1000", "views.send.1000", nil),
    ("view diff of 1000 rows / its send", "views.diff.1000", "views.send.1000", nil),
  ],
  extra: { filter in
    func wanted(_ name: String) -> Bool { benchmarkMatches(name, filter) }
    var results: [BenchmarkSuite.Result] = []
    // Effect figures, each sample taken beside one of the bare mechanism it is built on (#32,
    // BaselineBenchmarks.swift), so each is also a ratio that a slow spell of the machine hits on
    // both sides alike. The ratio goals are the former absolute goals (10 µs, 15 µs, 5 µs) over the
    // baseline's figure in quiet spells here (≈ 400, 280, 45 ns): README.md's benchmark table.
    var baselineSamples: [String: [Double]] = [:]
    @MainActor func baselineSample(_ name: String) async -> Double {
      switch name {
      case "baseline.task.hop": return await measureTaskHop(iterations: 40_000)
      case "baseline.continuation.resume": return await measureContinuationResume(iterations: 40_000)
      default: return measureLuaResume(iterations: 200_000)
      }
    }
    func summary(_ samples: [Double]) -> (median: Double, p10: Double, p90: Double) {
      let sorted = samples.sorted()
      return (benchmarkPercentile(sorted, 0.5), benchmarkPercentile(sorted, 0.1), benchmarkPercentile(sorted, 0.9))
    }
    /// `count` samples of `measure`, each between two of `baseline` (one before the first, one after
    /// each), its ratio taken to their mean: a slow spell that starts or ends mid-pair weighs on
    /// both sides. One unmeasured sample of the baseline first, as a warm-up.
    @MainActor func paired(
      _ name: String, unit: String = "ns", over baseline: String, goal: Double?, count: Int,
      _ measure: () async -> Double
    ) async -> BenchmarkSuite.Result {
      if baselineSamples[baseline] == nil {
        _ = await baselineSample(baseline)
        baselineSamples[baseline] = []
      }
      var samples: [Double] = []
      var ratios: [Double] = []
      var before = await baselineSample(baseline)
      baselineSamples[baseline]!.append(before)
      for _ in 0..<count {
        let sample = await measure()
        let after = await baselineSample(baseline)
        baselineSamples[baseline]!.append(after)
        samples.append(sample)
        ratios.append(sample / ((before + after) / 2))
        before = after
      }
      let figure = summary(samples)
      let ratio = summary(ratios)
      return .init(
        name: name, median: figure.median, p10: figure.p10, p90: figure.p90, unit: unit,
        ratio: .init(baseline: baseline, median: ratio.median, p10: ratio.p10, p90: ratio.p90, pairs: count, goal: goal))
    }
    if wanted("swift.effect.roundtrip") {
      results.append(
        await paired("swift.effect.roundtrip", over: "baseline.task.hop", goal: 25, count: 7) {
          await measureEffectRoundTrip(iterations: 2_000)
        })
    }
    if wanted("lua.effect.roundtrip") {
      results.append(
        await paired("lua.effect.roundtrip", over: "baseline.continuation.resume", goal: 50, count: 7) {
          await measureLuaEffectRoundTrip(iterations: 2_000)
        })
    }
    // A sample of the small one is 20 stores of 100 sleepers (100 alone, ≈ 0.5 ms, took 27 µs an
    // action in one run of three when preempted); 3 samples of the large one (each sets up 10,000
    // sleepers), 7 of the small one.
    for count in [100, 10_000] where wanted("lua.effects.\(count)") {
      results.append(
        await paired("lua.effects.\(count)", over: "baseline.lua.resume", goal: 110, count: count == 100 ? 7 : 3) {
          await measureLuaEffectsAsleep(count: count, repetitions: count == 100 ? 20 : 1)
        })
    }
    if wanted("lua.effect.memory") {
      let bytes = await measureLuaEffectMemory(count: 10_000)
      results.append(.init(name: "lua.effect.memory", median: bytes / 1024, p10: bytes / 1024, p90: bytes / 1024, unit: "KB"))
    }
    if wanted("lua.effects.cancelled") || wanted("lua.effects.cancelled.time") {
      var outcome: (referencesBack: Bool, megabytes: Double, nanosecondsPerEffect: Double)?
      let timed = await paired("lua.effects.cancelled.time", over: "baseline.lua.resume", goal: nil, count: 1) {
        outcome = await measureLuaEffectsCancelled(count: 100_000)
        return outcome!.nanosecondsPerEffect
      }
      if wanted("lua.effects.cancelled") {
        results.append(.init(name: "lua.effects.cancelled", median: outcome!.megabytes, p10: outcome!.megabytes, p90: outcome!.megabytes, unit: "MB"))
      }
      if wanted("lua.effects.cancelled.time") { results.append(timed) }
      if !outcome!.referencesBack { FileHandle.standardError.write(Data("lua.effects.cancelled: registry references did not return to their baseline\n".utf8)) }
    }
    // The baselines (reported whenever measured): every sample taken beside an effect figure, or 7
    // of their own when only they are selected.
    for name in ["baseline.task.hop", "baseline.continuation.resume", "baseline.lua.resume"]
    where wanted(name) || baselineSamples[name] != nil {
      if baselineSamples[name] == nil {
        _ = await baselineSample(name)
        var samples: [Double] = []
        for _ in 0..<7 { samples.append(await baselineSample(name)) }
        baselineSamples[name] = samples
      }
      let baseline = summary(baselineSamples[name]!)
      results.append(.init(name: name, median: baseline.median, p10: baseline.p10, p90: baseline.p90))
    }
    if wanted("views.patch.bytes") {
      // A size, not a time: the patch JSON for one changed row over that row's node JSON (≤ 2×).
      let size = measureViewPatchSize()
      let ratio = Double(size.patch) / Double(size.row)
      results.append(.init(
        name: "views.patch.bytes", median: Double(size.patch), p10: Double(size.patch), p90: Double(size.patch), unit: "B",
        ratio: .init(baseline: "views.row.bytes", median: ratio, p10: ratio, p90: ratio, pairs: 1, goal: 2)))
      results.append(.init(name: "views.row.bytes", median: Double(size.row), p10: Double(size.row), p90: Double(size.row), unit: "B"))
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
