import ArgumentParser
import Foundation
import WebSocketEcho

/// `relua websocket-echo`: the loopback WebSocket echo server of the tests, for demos.
struct WebSocketEchoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "websocket-echo",
    abstract: "Serve a WebSocket echo server on 127.0.0.1 (every message comes back as sent).",
    discussion: """
      The WebSocket case study connects to ws://127.0.0.1:8766/ by default:
        relua repl Scripts/Features/CaseStudies/WebSocket.lua
      The path /drop drops the connection after the first echo, /close closes it properly.
      """
  )

  @Option(help: "The port (0: any free port).")
  var port: UInt16 = 8766

  func run() throws {
    let server = WebSocketEchoServer()
    let port = try server.start(port: port)
    // Written at once (a pipe would buffer print's output): tests wait for this line.
    FileHandle.standardOutput.write(Data("WebSocket echo server listening on ws://127.0.0.1:\(port)/\n".utf8))
    while true { sleep(3600) }
  }
}
