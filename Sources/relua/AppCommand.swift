import ArgumentParser
import Foundation
import Relua
import ReluaInspector
import ReluaTesting
import ReluaWebApp

/// `relua app FEATURE.lua [--port P] [--inspect]`: the feature served as a web app on 127.0.0.1
/// (`ReluaWebApp`), until Ctrl-C or SIGTERM.
struct AppCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app",
    abstract: "Serve a feature script as a web app in the browser.",
    discussion: """
      Runs FILE (it returns a feature), opens a store of it with live dependencies and serves its \
      screens as a page: buttons, fields, lists, a navigation bar with Back, sheets and alerts, \
      updated live. It listens on 127.0.0.1:PORT (any free port without --port) and prints its \
      address with a secret token (App: http://127.0.0.1:PORT/?token=…); without the token every \
      request is refused. --inspect also serves the inspector on the same store and prints its \
      address. Ctrl-C or SIGTERM stops it.
      """
  )

  @Argument(help: "A Lua script that returns a feature.")
  var file: String

  @Option(help: "The port (0: any free port).")
  var port: UInt16 = 0

  @Flag(help: "Also serve the inspector on the same store.")
  var inspect = false

  @OptionGroup var sandbox: SandboxOptions

  @MainActor
  func run() async throws {
    let runtime: ReluaRuntime
    let store: ReluaStore
    do {
      runtime = try ReluaRuntime(options: sandbox.luaOptions(scriptRoots: LuaTestDiscovery.scriptRoots(for: file)))
      store = try runtime.makeStore(try runtime.loadFeature(file: file))
    } catch {
      FileHandle.standardError.write(Data("relua: \(error)\n".utf8))
      throw ExitCode.failure
    }
    let app: ReluaWebApp
    var inspector: StoreInspector?
    do {
      app = try await ReluaWebApp.start(serving: store, port: port)
      if inspect { inspector = try await StoreInspector.start(inspecting: store) }
    } catch {
      FileHandle.standardError.write(Data("relua: \(error)\n".utf8))
      throw ExitCode.failure
    }
    let stopped = AppStopSignal.install()
    // Written at once (a pipe would buffer print's output): tests wait for these lines.
    FileHandle.standardOutput.write(Data("App: \(app.url.absoluteString)\n".utf8))
    if let inspector { FileHandle.standardOutput.write(Data("Inspector: \(inspector.url.absoluteString)\n".utf8)) }
    await stopped()
    await inspector?.stop()
    await app.stop()
    withExtendedLifetime(runtime) {}
  }
}
