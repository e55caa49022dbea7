import Foundation
import Lua
import XCTest

@testable import Relua
@testable import ReluaTooling

/// `relua types`' generator over the shipped feature scripts and small ones of its own: what it
/// writes is Lua that Lua 5.4 compiles and runs, it names exactly the actions each feature's stores
/// accept (worked out here from the feature itself, apart from the generator, and each one checked
/// against the resolver stores send through), it types the state from the initial state and the
/// composition, and a script it cannot type is an error at its `file:line`. (The exact text, per
/// shipped feature: `LuaTypesGoldenTests`; the command and what it writes: CLITests' `TypesCommandTests`.)
@MainActor
final class LuaTypesGeneratorTests: XCTestCase {
  private func generate(_ scripts: [String]) async throws -> [LuaTypesGenerator.File] {
    let generator = LuaTypesGenerator()
    for script in scripts { try await generator.add(script: script) }
    return generator.files()
  }

  func testWhatItWritesIsLuaThatCompilesAndRuns() async throws {
    let files = try await generate(ShippedFeatures.files())
    XCTAssertEqual(files.first?.name, "relua.lua")
    XCTAssertEqual(files.count, ShippedFeatures.files().count + 1, files.map(\.name).joined(separator: ", "))
    // Each file compiles in Lua 5.4 (luaL_loadbuffer, the VM relua runs); then all run, the API
    // first, in one plain state (a meta file is declarations only: running it must not raise either).
    let lua = try LuaState(options: LuaOptions(trusted: false))
    defer { lua.close() }
    var chunks: [LuaFunction] = []
    for file in files {
      do {
        chunks.append(try lua.load(file.text, name: "@types/" + file.name))
      } catch {
        XCTFail("\(file.name) is not valid Lua: \(error)")
      }
    }
    for (file, chunk) in zip(files, chunks) {
      XCTAssertNoThrow(try lua.call(chunk), file.name)
    }
    XCTAssertNotNil(try lua.global("relua").tableValue, "relua.lua declares the global relua")
    // Every file is a meta file relua types owns.
    for file in files {
      let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
      XCTAssertTrue(lines.first?.hasPrefix("---@meta") ?? false, file.name)
      XCTAssertTrue(lines.dropFirst().first?.hasPrefix(LuaTypesWriter.marker) ?? false, file.name)
    }
  }

  /// For each shipped feature, its module's file (`Features.Counter.lua` for Scripts/Features/Counter.lua)
  /// against the action paths found here by walking the feature's definition: the `---| "path"`
  /// entries of its `.Action` alias and the element actions listed above it are equal sets (none
  /// missing, none made up), every one of them is an action the resolver stores send through
  /// accepts, with a payload exactly when it declares one, and every action with a payload has its
  /// typed overload of `send`.
  func testTheActionAliasNamesEveryActionEachFeatureAccepts() async throws {
    let files = try await generate(ShippedFeatures.files())
    var checked = 0
    for file in ShippedFeatures.files() {
      let name = ShippedFeatures.shortName(file)
      let namespace = Self.moduleName(file)
      guard let text = files.first(where: { $0.name == namespace + ".lua" })?.text else {
        XCTFail("\(name): no \(namespace).lua among \(files.map(\.name))")
        continue
      }
      let runtime = try ReluaRuntime(scriptRoots: LuaTestDiscovery.scriptRoots(for: file))
      let feature = try runtime.loadFeature(file: file)
      var expected = ExpectedActions { owner in try? runtime.initialState(of: owner) }
      expected.walk(feature, prefix: "", element: false, seen: [ObjectIdentifier(feature)])
      XCTAssertFalse(expected.plain.isEmpty, name)

      let alias = Self.block(startingWith: "---@alias \(namespace).Action", in: text, file: file)
      let entries = alias.filter { $0.hasPrefix("---| ") }
      XCTAssertEqual(Set(Self.quoted(in: entries)), expected.plain, "\(name): the actions of \(namespace).Action")
      let description = Self.description(above: "---@alias \(namespace).Action", in: text)
      let elements = Set(description.compactMap { line -> String? in
        guard line.hasPrefix("---`"), line.hasSuffix("`") else { return nil }
        return String(line.dropFirst(4).dropLast())
      })
      XCTAssertEqual(elements, expected.elements, "\(name): the element actions of \(namespace)")

      // What stores accept: each path named resolves, and takes a payload when the alias types one.
      for entry in entries {
        guard let path = Self.quoted(in: [entry]).first else { continue }
        do {
          let payload = try ActionResolver.walk(ActionResolver.parse(path)[...], in: feature, text: path)
          XCTAssertEqual(payload == .none, !entry.contains(" # "), "\(name): \(entry) (the store expects \(payload))")
        } catch {
          XCTFail("\(name): a store of \(feature.name) does not accept \(path): \(error)")
        }
      }
      for element in elements {
        let path = element.replacingOccurrences(of: "[id=ID]", with: "[id=1]")
        XCTAssertNoThrow(
          try ActionResolver.walk(ActionResolver.parse(path)[...], in: feature, text: path),
          "\(name): a store of \(feature.name) does not accept \(path)")
      }
      // Each action with a payload has its typed overload of send, the store's and the test store's.
      for action in expected.plain where expected.payloads[action] != nil {
        for store in ["Store", "TestStore"] {
          XCTAssertTrue(
            text.contains("---@overload fun(self: \(namespace).\(store), action: \"\(action)\", payload"),
            "\(namespace).\(store):send has no overload for \(action)")
        }
      }
      checked += expected.plain.count + expected.elements.count
    }
    XCTAssertGreaterThan(checked, 90, "the shipped features' actions (96 when written)")
  }

  /// What a store accepts, worked out from the definition: own actions, bindings, and the children's
  /// by path (elements by id, kept apart); a feature already on the path is not entered again.
  @MainActor
  private struct ExpectedActions {
    /// A feature's initial state: a bindable field holding a record binds its fields too
    /// (`binding.syncUp.title`, issue #34 gap 4).
    let initialState: (FeatureDefinition) -> Value?
    var plain: Set<String> = []
    var payloads: [String: PayloadType] = [:]
    var elements: Set<String> = []

    mutating func add(_ path: String, _ payload: PayloadType, element: Bool) {
      if element {
        elements.insert(path)
      } else {
        plain.insert(path)
        if payload != .none { payloads[path] = payload }
      }
    }

    mutating func walk(_ feature: FeatureDefinition, prefix: String, element: Bool, seen: [ObjectIdentifier]) {
      for (name, payload) in feature.actions { add(prefix + name, payload, element: element) }
      for field in feature.bindable {
        add(prefix + "binding." + field, .any, element: element)
        for nested in NestedBindingPaths.paths(of: initialState(feature) ?? .null, field: field) {
          add(prefix + "binding." + nested.path, .any, element: element)
        }
      }
      func enter(_ child: FeatureDefinition, _ childPrefix: String, _ inElement: Bool) {
        guard !seen.contains(ObjectIdentifier(child)) else { return }
        walk(child, prefix: childPrefix, element: element || inElement, seen: seen + [ObjectIdentifier(child)])
      }
      func destination(_ destination: FeatureChild.Destination, _ childPrefix: String, _ inElement: Bool) {
        switch destination {
        case .feature(let child): enter(child, childPrefix, inElement)
        case .alert(let buttons, _): for (button, payload) in buttons { add(childPrefix + button, payload, element: element || inElement) }
        }
      }
      for child in feature.children {
        let key = prefix + child.key
        switch child.kind {
        case .scope(let target), .lens(let target, _, _), .optional(let target): enter(target, key + ".", false)
        case .forEach(let target): enter(target, key + "[id=ID].", true)
        case .presented(let presented):
          destination(presented, key + ".", false)
          add(key + ".dismiss", .none, element: element)
        case .presents(let kinds):
          for (kind, target) in kinds { destination(target, key + "." + kind + ".", false) }
          add(key + ".dismiss", .none, element: element)
        case .stack(let kinds):
          for (kind, target) in kinds { destination(target, key + "[id=ID]." + kind + ".", true) }
          add(key + ".popFrom", .integer, element: element)
          add(key + ".push", .table, element: element)
        }
      }
    }
  }

  func testTheStateIsTypedFromTheInitialStateAndTheComposition() async throws {
    let dir = try LuaTestDirectory()
    let script = try dir.write("Shop.lua", """
      local relua = require "relua"
      local Row = relua.feature "Row" { state = { id = 0, title = "", done = false }, actions = { toggle = {} } }
      local Cart = relua.feature "Cart" { state = { total = 0.0 }, actions = { clear = {} } }
      return relua.feature "Shop" {
        state = {
          name = "corner", visits = 3, rating = 4.5, open = true, tags = { "a", "b" },
          address = { street = "Main", number = 1 },
          history = { { at = 1, note = "x" }, { at = 2 } },
          mixed = { 1, 2.5 }, empty = {}, rows = {}, cart = { total = 0.0 },
        },
        actions = { rename = "string", reorder = "{integer}", note = "string?", anything = "any" },
        bindable = { "name", "open" },
        compose = {
          relua.forEach("rows", Row), relua.scope("cart", Cart), relua.optional("saved", Cart),
          relua.presents("sheet", { cart = Cart, alert = relua.alert { ok = {} } }),
          relua.stack("path", { row = Row }),
        },
      }
      """)
    // (Run where it is: its places are shown relative to the current directory.)
    let files = try await dir.inside { try await generate([URL(fileURLWithPath: script).lastPathComponent]) }
    let shop = try XCTUnwrap(files.first { $0.name == "Shop.lua" }?.text)
    for line in [
      "---@class Shop.State",
      "---@field address Shop.State.address",
      "---@field cart Shop.Cart.State",
      "---@field empty table",
      "---@field history Shop.State.history.Element[]",
      "---@field mixed number[]",
      "---@field name string",
      "---@field open boolean",
      "---@field path Shop.State.path.Element[]",
      "---@field rating number",
      "---@field rows Shop.Row.State[]",
      "---@field saved? Shop.Cart.State",
      "---@field sheet? Shop.State.sheet",
      "---@field tags string[]",
      "---@field visits integer",
      "---@class Shop.State.address\n---@field number integer\n---@field street string",
      "---@class Shop.State.history.Element\n---@field at integer\n---@field note? string",
      "---@field alert? relua.AlertState\n---@field cart? Shop.Cart.State",
      "---@field id integer\n---@field row? Shop.Row.State",
      "---@class Shop.Row.State\n---@field done boolean\n---@field id integer\n---@field title string",
      "---@class Shop.Cart.State\n---@field total number",
      // payloads: declared types, bindings the field's type; an optional payload may be left out
      "---| \"binding.name\" # string",
      "---| \"reorder\" # integer[]",
      "---| \"note\" # string?",
      "---@overload fun(self: Shop.Store, action: \"note\", payload?: string): relua.StoreTask",
      "---@overload fun(self: Shop.Store, action: \"reorder\", payload: integer[]): relua.StoreTask",
      "---| \"sheet.alert.ok\"",
      "---`rows[id=ID].toggle`",
      "---`path[id=ID].row.toggle`",
      // element actions are text: send takes any text too
      "---@overload fun(self: Shop.Store, action: string, payload?: any): relua.StoreTask",
      // the features declared and not returned are named after the module and themselves
      "---The feature \"Row\" (Shop.lua:2).\n---@class Shop.Row: relua.Feature",
    ] {
      XCTAssertTrue(shop.contains(line), "Shop.lua lacks:\n\(line)\n--- in:\n\(shop)")
    }
    // A state may hold fields its initial state leaves nil: its classes name theirs and allow others.
    XCTAssertTrue(shop.contains("---@field visits integer\n---@field [string] any"), shop)
    XCTAssertTrue(shop.contains("---@field street string\n---@field [string] any"), shop)
    // send's first signature names every action (an editor completes those of the first
    // signature); a payload goes through the action's own overload.
    XCTAssertTrue(
      shop.contains("""
        ---@param action "anything"|"binding.name"|"binding.open"|"cart.clear"|"note"|"path.popFrom"|"path.push"|"rename"|"reorder"|"saved.clear"|"sheet.alert.ok"|"sheet.cart.clear"|"sheet.dismiss"
        ---@param payload? nil
        ---@return relua.StoreTask
        """),
      shop)
    // The file is what `require "Shop"` gives: its meta name is the module's, and it returns the feature.
    XCTAssertTrue(shop.hasPrefix("---@meta Shop\n"), shop)
    XCTAssertTrue(shop.hasSuffix("---What `require \"Shop\"` gives.\n---@type Shop\nlocal feature\nreturn feature\n"), shop)
    // relua.Store and relua.TestStore give each feature's typed store; their plain signature takes
    // untyped features only, so a typed one matches its overload alone.
    let api = try XCTUnwrap(files.first?.text)
    XCTAssertTrue(api.contains("---@overload fun(feature: Shop, options?: relua.StoreOptions): Shop.Store"), api)
    XCTAssertTrue(api.contains("---@overload fun(feature: Shop.Row, options?: relua.StoreOptions): Shop.Row.TestStore"), api)
    XCTAssertTrue(api.contains("---@param feature relua.UntypedFeature\n---@param options? relua.StoreOptions\n---@return relua.Store\n"), api)
    XCTAssertTrue(api.contains("---@return fun(spec: relua.FeatureSpec): relua.UntypedFeature\nfunction relua.feature(name) end"), api)
  }

  func testFeaturesOfOneNameInTwoFilesKeepTheirOwnTypes() async throws {
    let dir = try LuaTestDirectory()
    let a = try dir.write("Scripts/A/Counter.lua", """
      return require("relua").feature "Counter" { state = { a = 1 }, actions = { up = {} } }
      """)
    let b = try dir.write("Scripts/B/Counter.lua", """
      return require("relua").feature "Counter" { state = { b = "x" }, actions = { down = {} } }
      """)
    let files = try await generate([a, b])
    XCTAssertEqual(files.map(\.name), ["relua.lua", "A.Counter.lua", "B.Counter.lua"])
    XCTAssertTrue(files[1].text.contains("---@class A.Counter.State\n---@field a integer"), files[1].text)
    XCTAssertTrue(files[2].text.contains("---@class B.Counter.State\n---@field b string"), files[2].text)
    // Each is what `require` of its module gives, whatever the name.
    XCTAssertTrue(files[1].text.hasPrefix("---@meta A.Counter\n"), files[1].text)
    XCTAssertTrue(files[2].text.hasPrefix("---@meta B.Counter\n"), files[2].text)
    XCTAssertTrue(files[0].text.contains("---@overload fun(feature: A.Counter, options?: relua.StoreOptions): A.Counter.Store"))
    XCTAssertTrue(files[0].text.contains("---@overload fun(feature: B.Counter, options?: relua.StoreOptions): B.Counter.Store"))
  }

  /// A module that declares features and returns something else (a table of them) keeps its own
  /// `require`: its meta file is `---@meta _`, which lua-language-server never takes for a module.
  func testAModuleReturningNoFeatureIsNotReplacedForRequire() async throws {
    let dir = try LuaTestDirectory()
    try dir.write("Scripts/Parts.lua", """
      local relua = require "relua"
      local Part = relua.feature "Part" { state = { n = 0 }, actions = { bump = {} } }
      return { Part = Part, version = 1 }
      """)
    let machine = try dir.write("Scripts/Machine.lua", """
      local relua = require "relua"
      local Parts = require "Parts"
      return relua.feature "Machine" { state = { part = Parts.Part:initial() }, compose = { relua.scope("part", Parts.Part) } }
      """)
    let files = try await generate([machine])
    XCTAssertEqual(files.map(\.name), ["relua.lua", "Machine.lua", "Parts.lua"])
    XCTAssertTrue(files[1].text.hasPrefix("---@meta Machine\n"), files[1].text)
    XCTAssertTrue(files[1].text.contains("---@field part Parts.Part.State"), files[1].text)
    XCTAssertTrue(files[2].text.hasPrefix("---@meta _\n"), files[2].text)
    XCTAssertTrue(files[2].text.contains("---@class Parts.Part: relua.Feature"), files[2].text)
    XCTAssertFalse(files[2].text.contains("return feature"), files[2].text)
  }

  func testAQuotedNameIsTheSameStringBackInLuaEvenWithAControlCharacterBeforeADigit() throws {
    let name = "a\u{1}2\"b\\\n"
    let quoted = LuaAnnotation.quoted(name)
    XCTAssertEqual(quoted, #""a\0012\"b\\\n""#)
    let lua = try LuaState()
    XCTAssertEqual(try lua.execute("return " + quoted), [.string(LuaString(name))])
  }

  func testAScriptThatRaisesIsAnErrorAtItsLine() async throws {
    let dir = try LuaTestDirectory()
    let script = try dir.write("Broken.lua", """
      local relua = require "relua"
      local total = nil + 1
      return relua.feature "Broken" { state = { total = total } }
      """)
    do {
      _ = try await generate([script])
      XCTFail("a script that raises gives no types")
    } catch let error as LuaError {
      // (Lua may shorten a long path to its end: `...ests-…/Broken.lua`.)
      guard case .runtime(let message, _) = error else { return XCTFail("\(error)") }
      XCTAssertTrue(message.contains("Broken.lua:2: attempt to perform arithmetic on a nil value"), message)
    }
  }

  func testAScriptThatReturnsNoFeatureIsAnErrorAtItsEnd() async throws {
    let dir = try LuaTestDirectory()
    let script = try dir.write("helpers.lua", "local M = {}\nfunction M.f() end\n\nreturn M\n")
    do {
      _ = try await generate([script])
      XCTFail("a script returning a table is not a feature script")
    } catch let failure as LuaTypesGenerator.Failure {
      XCTAssertEqual(
        failure.description,
        "\(script):4: the script returned a table, not a feature: a feature script ends with "
          + "`return relua.feature \"Name\" { … }` (or returns the feature it declared)")
    }
    // Nothing returned at all: the last line.
    let empty = try dir.write("empty.lua", "local x = 1\nx = x + 1\n")
    do {
      _ = try await generate([empty])
      XCTFail("a script returning nothing is not a feature script")
    } catch let failure as LuaTypesGenerator.Failure {
      XCTAssertTrue(failure.description.hasPrefix("\(empty):2: the script returned nothing, not a feature"), failure.description)
    }
  }

  private static func moduleName(_ file: String) -> String {
    let scripts = ShippedFeatures.repositoryRoot.appendingPathComponent("Scripts").path + "/"
    return String(file.dropFirst(scripts.count).dropLast(4)).replacingOccurrences(of: "/", with: ".")
  }

  /// The lines from one starting with `start` to the next blank line.
  private static func block(startingWith start: String, in text: String, file: String) -> [String] {
    let lines = text.components(separatedBy: "\n")
    guard let first = lines.firstIndex(where: { $0.hasPrefix(start) && ($0.count == start.count || $0.dropFirst(start.count).first == " ") }) else {
      XCTFail("\(ShippedFeatures.shortName(file)): no \(start)")
      return []
    }
    return Array(lines[first...].prefix { !$0.isEmpty })
  }

  /// The `---` lines right above the line `line`.
  private static func description(above line: String, in text: String) -> [String] {
    let lines = text.components(separatedBy: "\n")
    guard let index = lines.firstIndex(where: { $0.hasPrefix(line) && ($0.count == line.count || $0.dropFirst(line.count).first == " ") }) else { return [] }
    return Array(lines[..<index].reversed().prefix { $0.hasPrefix("---") && !$0.hasPrefix("---@") }.reversed())
  }

  /// The double-quoted strings of the lines (`---| "counter.increment" # integer` → `counter.increment`).
  private static func quoted(in lines: [String]) -> [String] {
    lines.compactMap { line in
      guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"") else { return nil }
      return String(line[line.index(after: open)..<close])
    }
  }
}
