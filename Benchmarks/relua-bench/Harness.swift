import Foundation

/// A tiny benchmark harness: each benchmark runs `operation` `iterations` times per sample; after a
/// warm-up, the median (and p10/p90) of ns per operation over `samples` samples is reported.
/// Samples are taken in rounds across the selected benchmarks (see `run`).
/// Add benchmarks with `suite.add(name) { iterations in … }`; the closure must do the work
/// `iterations` times (setup outside the loop is not timed if done in `setUp`).
@MainActor
final class BenchmarkSuite {
  struct Benchmark {
    var name: String
    var iterations: Int
    /// Prepares a run; returns the timed body.
    var prepare: () -> (Int) -> Void
  }

  struct Result {
    var name: String
    var median: Double
    var p10: Double
    var p90: Double
    var unit = "ns"
    /// An effect figure's ratio to the bare mechanism it is built on (`baseline.*`), measured in the
    /// same run: the median (p10, p90) of the ratios of samples taken side by side, over `pairs`.
    var ratio: Ratio? = nil
  }

  struct Ratio {
    var baseline: String
    var median: Double
    var p10: Double
    var p90: Double
    var pairs: Int
    /// nil: a reference figure (printed without a verdict).
    var goal: Double?
  }

  var benchmarks: [Benchmark] = []
  var samples = 15
  var warmUps = 2

  /// `iterations`: operations per sample. `prepare` runs before each sample (untimed) and returns the
  /// body to time, which receives the iteration count.
  func add(_ name: String, iterations: Int = 100_000, prepare: @escaping () -> (Int) -> Void) {
    benchmarks.append(Benchmark(name: name, iterations: iterations, prepare: prepare))
  }

  /// Runs the selected benchmarks interleaved: after the warm-ups, each round takes one sample of
  /// every benchmark, so a slow spell of this (noisy, shared) machine hits all of them alike and
  /// ratios compare samples taken side by side. Returns the results and each one's samples by round.
  func run(filter: String?) -> (results: [Result], rounds: [String: [Double]]) {
    let selected = benchmarks.filter { benchmarkMatches($0.name, filter) }
    for benchmark in selected {
      for _ in 0..<warmUps { benchmark.prepare()(benchmark.iterations) }
    }
    var perOp = Array(repeating: [Double](), count: selected.count)
    for _ in 0..<samples {
      for (index, benchmark) in selected.enumerated() {
        let body = benchmark.prepare()
        let start = DispatchTime.now().uptimeNanoseconds
        body(benchmark.iterations)
        let end = DispatchTime.now().uptimeNanoseconds
        perOp[index].append(Double(end - start) / Double(benchmark.iterations))
      }
    }
    var rounds: [String: [Double]] = [:]
    let results = selected.enumerated().map { index, benchmark in
      rounds[benchmark.name] = perOp[index]
      let sorted = perOp[index].sorted()
      return Result(name: benchmark.name, median: percentile(sorted, 0.5), p10: percentile(sorted, 0.1), p90: percentile(sorted, 0.9))
    }
    return (results, rounds)
  }

  private func percentile(_ sorted: [Double], _ p: Double) -> Double { benchmarkPercentile(sorted, p) }

  /// Runs the suite per the command line: `--json` prints one JSON object, `--filter PREFIX` a subset.
  /// `ratios`: (name, numerator, denominator, goal) printed under the table when both ran; a nil
  /// goal is a reference figure (printed without a verdict).
  /// `extra`: results measured outside the suite (async loops, process launches), given the filter.
  func main(
    arguments: [String] = CommandLine.arguments, ratios: [(String, String, String, Double?)] = [],
    extra: (_ filter: String?) async -> [Result] = { _ in [] }
  ) async {
    let json = arguments.contains("--json")
    let filter = arguments.firstIndex(of: "--filter").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    if let samplesIndex = arguments.firstIndex(of: "--samples"), samplesIndex + 1 < arguments.count,
      let value = Int(arguments[samplesIndex + 1])
    {
      samples = value
    }
    let (measured, rounds) = run(filter: filter)
    let results = measured + (await extra(filter))
    if json {
      var object: [String: [String: Any]] = [:]
      for result in results {
        object[result.name] = [
          "value": round2(result.median), "unit": result.unit, "median": round2(result.median),
          "p10": round2(result.p10), "p90": round2(result.p90),
        ]
        if let ratio = result.ratio {
          object[result.name]!["baseline"] = ratio.baseline
          object[result.name]!["ratio"] = round2(ratio.median)
          object[result.name]!["ratio_p10"] = round2(ratio.p10)
          object[result.name]!["ratio_p90"] = round2(ratio.p90)
          if let goal = ratio.goal { object[result.name]!["ratio_goal"] = goal }
        }
      }
      let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      print(String(decoding: data, as: UTF8.self))
      return
    }
    let width = max(28, (results.map(\.name.count).max() ?? 0) + 2)
    // Columns as wide as the widest figure (a millisecond in ns runs to 10 characters) plus a space.
    let column = max(9, results.flatMap { [$0.median, $0.p10, $0.p90] }.map { String(format: "%.1f", $0).count + 1 }.max() ?? 0)
    print("name".padding(toLength: width, withPad: " ", startingAt: 0)
      + ["median", "p10", "p90"].map { String(repeating: " ", count: column - $0.count) + $0 }.joined() + "  unit")
    for result in results {
      print(
        result.name.padding(toLength: width, withPad: " ", startingAt: 0)
          + format(result.median, column) + format(result.p10, column) + format(result.p90, column) + "  " + result.unit)
    }
    // The median of the ratios of samples taken in the same round (see `run`).
    for (label, numerator, denominator, goal) in ratios {
      guard let a = rounds[numerator], let b = rounds[denominator], a.count == b.count, !a.isEmpty else { continue }
      let ratio = percentile(zip(a, b).map { $0 / $1 }.sorted(), 0.5)
      let verdict = goal.map { "(goal ≤ \($0)) \(ratio <= $0 ? "ok" : "MISSED")" } ?? "(reference)"
      print("\(label): \(format(ratio, 0, digits: 2)) \(verdict), paired over \(a.count) rounds")
    }
    for result in results {
      guard let ratio = result.ratio else { continue }
      let verdict = ratio.goal.map { "(goal ≤ \($0)) \(ratio.median <= $0 ? "ok" : "MISSED")" } ?? "(reference)"
      print(
        "\(result.name) / \(ratio.baseline): \(format(ratio.median, 0, digits: 2)) \(verdict), p10–p90 "
          + "\(format(ratio.p10, 0, digits: 2))–\(format(ratio.p90, 0, digits: 2)), paired over \(ratio.pairs) samples")
    }
  }

  private func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  private func format(_ value: Double, _ width: Int, digits: Int = 1) -> String {
    let text = String(format: "%.\(digits)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }
}

/// The `p` percentile (0…1) of sorted samples, the nearest one.
func benchmarkPercentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {}

/// Whether `name` is selected by `--filter`: a prefix, or the exact name when it ends with `$`.
func benchmarkMatches(_ name: String, _ filter: String?) -> Bool {
  guard let filter else { return true }
  // Several filters, comma-separated: any may match (`lua.shared.100$,lua.shared.plain$`).
  if filter.contains(",") { return filter.split(separator: ",").contains { benchmarkMatches(name, String($0)) } }
  if filter.hasSuffix("$") { return name == filter.dropLast() }
  return name.hasPrefix(filter)
}
