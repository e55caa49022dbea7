import Composable
import Lua
import WebSocket

/// `deps.websocket` for Lua effects:
///
///     local socket <close> = deps.websocket.connect("echo", "ws://127.0.0.1:8766/")  -- async
///     socket:send("Hello")                        -- async; or socket:send(bytes, "binary")
///     for message, kind in socket:receive() do … end  -- kind: "text" | "binary"; ends when the server closes
///     deps.websocket.send("echo", "Hi")           -- async: through the socket open under that id
///     socket:close()                              -- also when the <close> variable goes, or the effect is cancelled
///
/// A failed connect, send or receive raises `WebSocket: <why> (<url>)` at the calling line, where
/// `pcall` catches it. Waiting for a message is a live wait (not parked): a test store waits for it
/// up to its timeout.
@MainActor
enum LuaWebSocket {
  static func makeTable(host: ReluaHost) throws -> LuaTable {
    let lua = host.lua
    let table = try lua.table()
    try table.rawSet("connect", .function(host.driver.awaitable(name: "deps.websocket.connect", in: lua) { arguments in
      guard let id = arguments.first?.stringValue else {
        throw LuaError.argument(position: 1, message: "deps.websocket.connect(id, url): expected an id (a string)")
      }
      guard arguments.count > 1, let url = arguments[1].stringValue else {
        throw LuaError.argument(position: 2, message: "deps.websocket.connect(id, url): expected a ws:// URL (a string)")
      }
      let connection = try await DependencyValues.current.websocket.open(id: id, url: url)
      // Cancelled while connecting: nobody will get the socket (and close it).
      if Task.isCancelled {
        connection.close()
        throw CancellationError()
      }
      return [.table(try socketObject(connection, id: id, host: host))]
    }))
    try table.rawSet("send", .function(host.driver.awaitable(name: "deps.websocket.send", in: lua) { arguments in
      guard let id = arguments.first?.stringValue else {
        throw LuaError.argument(position: 1, message: "deps.websocket.send(id, text): expected an id (a string)")
      }
      let message = try Self.message(arguments.dropFirst(), function: "deps.websocket.send(id, text[, kind])", position: 2)
      guard let connection = DependencyValues.current.websocket.socket(id: id) else {
        throw WebSocketFailure("WebSocket: no socket is open under the id '\(id)'")
      }
      try await connection.send(message)
      return []
    }))
    return table
  }

  /// The socket as Lua holds it: `{ id, url }` with the methods `send`, `receive`, `close`;
  /// closing it (`<close>`, garbage collection) closes the connection.
  private static func socketObject(_ connection: WebSocketConnection, id: String, host: ReluaHost) throws -> LuaTable {
    let lua = host.lua
    let socket = try lua.table()
    // Methods know their socket by this pointer (holding the table would keep it alive forever).
    let identity = LuaValue.lightUserdata(Unmanaged.passUnretained(connection).toOpaque())
    func checkSelf(_ value: LuaValue?, _ method: String) throws {
      guard case .table(let table)? = value, try table.rawGet("__socket") == identity else {
        throw LuaError.argument(position: 1, message: "socket:\(method)(…): call it with ':' on the socket it belongs to")
      }
    }
    try socket.rawSet("__socket", identity)
    try socket.rawSet("id", .text(id))
    try socket.rawSet("url", .text(connection.url))
    try socket.rawSet("send", .function(host.driver.awaitable(name: "socket:send", in: lua) { arguments in
      try checkSelf(arguments.first, "send")
      try await connection.send(try message(arguments.dropFirst(), function: "socket:send(text[, kind])", position: 2))
      return []
    }))
    let receiver = Receiver(connection)
    try socket.rawSet("receive", .function(lua.function { stack in
      let arguments = stack.values
      try checkSelf(arguments.first, "receive")
      guard arguments.count <= 1 else {
        throw LuaError.argument(position: 2, message: "socket:receive() takes no arguments")
      }
      return try LuaStream.iterate("socket:receive", host: host) {
        guard let message = try await receiver.next() else { return nil }
        switch message {
        case .text(let text): return [.text(text), .text("text")]
        case .binary(let bytes): return [.string(LuaString(bytes: bytes)), .text("binary")]
        }
      }
    }))
    try socket.rawSet("close", .function(lua.function { stack in
      try checkSelf(stack.values.first, "close")
      connection.close()
      return []
    }))
    let metatable = try lua.table()
    let close = LuaValue.function(try lua.function { _ in
      connection.close()
      return []
    })
    try metatable.rawSet("__close", close)
    try metatable.rawSet("__gc", close)
    try metatable.rawSet("__name", .text("WebSocket"))
    try metatable.rawSet("__tostring", .function(try lua.function { _ in
      [.text("WebSocket '\(id)' (\(connection.isClosed ? "closed" : "open")) \(connection.url)")]
    }))
    try socket.setMetatable(metatable)
    return socket
  }

  /// A message from Lua arguments `text[, kind]`: text must be UTF-8; `"binary"` sends the bytes as they are.
  private static func message(_ arguments: ArraySlice<LuaValue>, function: String, position: Int) throws -> WebSocketMessage {
    guard case .string(let bytes)? = arguments.first else {
      throw LuaError.argument(position: position, message: "\(function): expected the message (a string)")
    }
    let kind = arguments.dropFirst().first ?? .nil
    switch kind.stringValue {
    case nil where kind.isNil, "text"?:
      guard let text = bytes.string else {
        throw LuaError.argument(position: position, message: "\(function): the text is not UTF-8 (send it as \"binary\")")
      }
      return .text(text)
    case "binary"?:
      return .binary(bytes.bytes)
    default:
      throw LuaError.argument(position: position + 1, message: "\(function): the kind must be \"text\" or \"binary\"")
    }
  }

  /// The reader of a socket's messages, one per socket: loops over `socket:receive()` take the
  /// messages in turn, one waiting at a time (a second waiting loop is an error).
  @MainActor
  private final class Receiver {
    private var iterator: AsyncThrowingStream<WebSocketMessage, any Error>.AsyncIterator
    private var busy = false
    private let url: String

    init(_ connection: WebSocketConnection) {
      iterator = connection.messages.makeAsyncIterator()
      url = connection.url
    }

    func next() async throws -> WebSocketMessage? {
      guard !busy else { throw WebSocketFailure("WebSocket: another loop is already receiving from this socket (\(url))") }
      busy = true
      defer { busy = false }
      var current = iterator
      defer { iterator = current }
      return try await current.next(isolation: #isolation)
    }
  }
}

/// An error of the WebSocket dependency itself (not of a connection), said as Lua shows it.
struct WebSocketFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
