import Foundation
import XCTest

@testable import Relua

/// Every screen of every shipped feature that a few actions reach renders (issue #20): a
/// breadth-first exploration over each screen's declared actions (`ScreenExplorer`) fails on any
/// view that raises, naming the feature, the actions that lead there and the error.
///
/// A longer run: `RELUA_EXPLORE_DEPTH=5 RELUA_EXPLORE_STATES=5000 swift test --filter EveryScreenRendersTests`.
@MainActor
final class EveryScreenRendersTests: XCTestCase {
  private var depth: Int { ProcessInfo.processInfo.environment["RELUA_EXPLORE_DEPTH"].flatMap(Int.init) ?? 3 }
  /// Per feature: keeps the whole run within seconds in a debug build.
  private var maxStates: Int { ProcessInfo.processInfo.environment["RELUA_EXPLORE_STATES"].flatMap(Int.init) ?? 200 }
  /// Strings a reducer accepts by name, which no representative string guesses.
  private let payloadHints: [String: [String: [Value]]] = [
    "CaseStudies/SharedState.lua": ["selectTab": [.string("profile"), .string("counter")]],
  ]

  func testEveryScreenWithinAFewActionsRenders() async throws {
    let files = ShippedFeatures.files()
    XCTAssertGreaterThan(files.count, 10, "the shipped features")
    var states = 0
    for file in files {
      let name = ShippedFeatures.shortName(file)
      let started = ContinuousClock.now
      let explorer = try ScreenExplorer(file: file, payloadHints: payloadHints[name] ?? [:])
      defer { explorer.close() }
      let report = try await explorer.explore(depth: depth, maxStates: maxStates)
      states += report.states
      print(
        "\(name): \(report.states) states\(report.capped ? " (capped)" : ""), \(report.sends) sends "
          + "(\(report.refusedByReducers) refused by a reducer), screens [\(report.screens.sorted().joined(separator: "; "))] "
          + "in \(started.duration(to: .now).formatted(.units(allowed: [.milliseconds])))")
      for failure in report.failures { XCTFail("\(name): \(failure)") }
      for action in report.unresolved { XCTFail("\(name): the exploration built an action relua refuses: \(action)") }
    }
    XCTAssertGreaterThan(states, files.count * 5, "the exploration hardly moved")
  }

  /// The exploration reports a view that raises, on the root or on a presented screen, with the
  /// shortest action path to it.
  func testAViewThatRaisesIsReportedWithTheActionsLeadingToIt() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-explore-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("Fragile.lua").path
    try """
      local relua = require "relua"
      local on = relua.on
      local Detail = relua.feature "Detail" {
        state = { title = "x" },
        actions = { clear = {} },
        reduce = on { clear = function(s) s.title = nil end },
        view = function(s) return "Title: " .. s.title end,
      }
      return relua.feature "Fragile" {
        state = { count = 0, detail = nil },
        actions = { increment = {}, open = {} },
        compose = { relua.presents("detail", Detail) },
        reduce = on {
          increment = function(s) s.count = s.count + 1 end,
          open = function(s) s.detail = { title = "x" } end,
        },
        view = function(s)
          if s.count == 2 then error("two is too many") end
          return "count " .. s.count
        end,
      }
      """.write(toFile: file, atomically: true, encoding: .utf8)
    let explorer = try ScreenExplorer(file: file)
    defer { explorer.close() }
    let report = try await explorer.explore(depth: 3, maxStates: 100)
    let failures = report.failures.map(\.description)
    XCTAssertEqual(failures.count, 2, "\(failures)")
    XCTAssertTrue(failures.contains {
      $0.hasPrefix("the view of Fragile raised after :increment → :increment (screens: Fragile): ") && $0.contains("two is too many")
    }, "\(failures)")
    XCTAssertTrue(failures.contains {
      $0.hasPrefix("the view of Detail at detail raised after :open → :detail.clear (screens: Fragile › Detail): ")
        && $0.contains("attempt to concatenate")
    }, "\(failures)")
  }
}
