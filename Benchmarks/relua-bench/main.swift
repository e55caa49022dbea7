import Composable
import Lua

// relua-bench: engine benchmarks (Lua benchmarks register into the same suite later).
// Usage: relua-bench [--json] [--filter PREFIX] [--samples N]

let suite = BenchmarkSuite()
registerEngineBenchmarks(suite)
registerLuaBenchmarks(suite)
suite.add("swift.effect.roundtrip", iterations: 2_000) {
  return { n in
    // Timed inside: the body is async, so it is driven from a detached main-actor loop below.
    blackHole(n)
  }
}
// Replace the placeholder's timing with the async measurement.
let roundTripIndex = suite.benchmarks.firstIndex { $0.name == "swift.effect.roundtrip" }!
let roundTrip = suite.benchmarks.remove(at: roundTripIndex)
suite.main(
  ratios: [
    ("swift.send / swift.direct", "swift.send", "swift.direct", 100),
    ("forEach 100000 / 100", "swift.forEach.100000", "swift.forEach.100", 2),
    ("depth 10 / depth 1", "swift.depth.10", "swift.depth.1", 3),
  ])

let filter = CommandLine.arguments.firstIndex(of: "--filter").flatMap {
  $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
}
if filter == nil || roundTrip.name.hasPrefix(filter!) {
  var samples: [Double] = []
  for _ in 0..<7 { samples.append(await measureEffectRoundTrip(iterations: roundTrip.iterations)) }
  samples.sort()
  let median = samples[samples.count / 2]
  if CommandLine.arguments.contains("--json") {
    print("{\"swift.effect.roundtrip\":{\"median\":\(Int(median)),\"p10\":\(Int(samples[1])),\"p90\":\(Int(samples[5])),\"unit\":\"ns\",\"value\":\(Int(median))}}")
  } else {
    print("swift.effect.roundtrip".padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: "%9.1f%9.1f%9.1f", median, samples[1], samples[5]))
  }
}
