// relua-todo: a terminal to-do list whose logic is a Lua feature (Todo.lua) and whose I/O is
// Swift: the terminal here, the storage a dependency the feature reaches as `deps.storage`.
//
//   relua-todo [--file PATH] [--inspect]   commands on standard input: add TITLE, done ID, rm ID, clear, list, quit;
//                                          --inspect also serves the store's inspector (StoreInspector) and prints its address
//   relua-todo --test                      runs todo_test.lua through ReluaRuntime.runTests
import Foundation
import Relua
import ReluaTesting
import ReluaInspector

/// Where Todo.lua and its tests are: beside this file (an example run from its package).
let exampleDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

/// `deps.storage`: `load()` → the saved items (or nil), `save(json)` (awaited) → true, or
/// `nil, err` when the file cannot be written.
func storage(file: String) -> ReluaDependency {
  ReluaDependency("storage", live: .members([
    "load": .function { _ in
      guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else { return [.null] }
      return [try Value(json: text)]
    },
    "save": .async { arguments in
      guard case .string(let text)? = arguments.first else {
        throw ReluaDependency.ArgumentError(position: 1, "deps.storage.save(json): the list as JSON text")
      }
      do {
        try text.write(toFile: file, atomically: true, encoding: .utf8)
      } catch {
        throw ReluaDependency.Failure(kind: "io", message: "cannot write \(file)")
      }
      return [.boolean(true)]
    },
  ]))
}

func render(_ state: Value) {
  let items = state[key: "items"].arrayValue ?? []
  if items.isEmpty { print("(nothing to do)") }
  for item in items {
    let done = item[key: "done"].boolValue == true ? "x" : " "
    print("[\(done)] #\(item[key: "id"].integerValue ?? 0) \(item[key: "title"].stringValue ?? "")")
  }
  if let problem = state[key: "problem"].stringValue { print("! \(problem)") }
}

/// Standard input's lines, read on a thread of their own: the main actor, where the store runs,
/// stays free meanwhile (for its effects, and for an inspector's page driving it).
func inputLines() -> AsyncStream<String> {
  AsyncStream { continuation in
    Thread {
      while let line = readLine() { continuation.yield(line) }
      continuation.finish()
    }.start()
  }
}

@MainActor
func runApp(file: String, inspect: Bool) async throws {
  let relua = try ReluaRuntime(scriptRoots: [exampleDirectory])
  try relua.register(storage(file: file))
  let todo = try relua.loadFeature(file: exampleDirectory + "/Todo.lua")
  let store = try relua.makeStore(todo)
  var inspector: StoreInspector?
  if inspect {
    inspector = try await StoreInspector.start(inspecting: store)
    // Written at once (print's output waits in a buffer when it goes to a pipe).
    FileHandle.standardOutput.write(Data("Inspector: \(inspector!.url)\n".utf8))
  }
  render(store.state)
  input: for await line in inputLines() {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard let command = words.first else { continue }
    let argument = words.count > 1 ? words[1] : ""
    do {
      switch command {
      case "add": try store.send("add", .string(argument))
      // The id goes as the user typed it: the feature's payload check refuses what is not an integer.
      case "done": try store.send("toggle", Int64(argument).map(Value.integer) ?? .string(argument))
      case "rm": try store.send("remove", Int64(argument).map(Value.integer) ?? .string(argument))
      case "clear": try store.send("clearDone")
      case "list": break
      case "quit": break input
      default:
        print("? commands: add TITLE, done ID, rm ID, clear, list, quit")
        continue
      }
      await store.waitForEffects()
      render(store.state)
    } catch {
      print("error: \(error)")
    }
  }
  await inspector?.stop()
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--test" {
  // The tests declare the storage they stub (`relua.dependency "storage"`), as `relua test` runs them.
  let summary = await ReluaRuntime.runTests(paths: [exampleDirectory + "/todo_test.lua"])
  for result in summary.results {
    print((result.failure == nil ? "PASS " : "FAIL ") + result.name + (result.failure.map { "\n  " + $0.message } ?? ""))
  }
  print(summary.closingLine)
  exit(summary.failed == 0 ? 0 : 1)
}
var file = FileManager.default.temporaryDirectory.appendingPathComponent("relua-todo.json").path
if let index = arguments.firstIndex(of: "--file"), arguments.index(after: index) < arguments.endIndex {
  file = arguments[arguments.index(after: index)]
}
do {
  try await runApp(file: file, inspect: arguments.contains("--inspect"))
} catch {
  FileHandle.standardError.write(Data("relua-todo: \(error)\n".utf8))
  exit(1)
}
