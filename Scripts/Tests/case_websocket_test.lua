-- TCA's WebSocketTests, ported against a real WebSocket echo server on loopback (TCA's stub
-- client yields the socket's events by hand; here the server answers): connect, send, receive
-- the echo, disconnect; a refused connection delivers its error; cancelling the effect closes the
-- socket. And the rules of `deps.websocket` (docs/DSL.md, Dependencies).
--
-- The echo server is the test process's own: `relua.testing.websocketEcho()` starts it on first
-- use on a port the system picks (loopback, ephemeral: runs at once on one machine never share
-- one) and gives its URL, "ws://127.0.0.1:PORT/"; its paths /drop and /close end a connection
-- after the first echo. `relua test` and the Swift test suite register it.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect
local WebSocket = require "Features.CaseStudies.WebSocket"

local port = require "Tests.Support.TCAPort"("WebSocketTests")
local ECHO = relua.testing.websocketEcho()

-- A test store of the case study starting at the test's echo server (the feature's default URL
-- is the hand-run demo's: Scripts/websocket-echo's fixed port).
local function atEcho(path)
  local state = WebSocket:initial()
  state.url = ECHO .. (path or "")
  return relua.TestStore(WebSocket, { deps = { websocket = "live" }, state = state })
end

local function connected()
  local store = atEcho()
  store:send("connectButtonTapped", function(s) s.connectivityState = "connecting" end)
  store:receive("didOpen", function(s) s.connectivityState = "connected" end)
  return store
end

port("happyPath", function()
  local store = connected()
  -- Send a message; the server answers with it
  store:send("messageToSendChanged", "Hi", function(s) s.messageToSend = "Hi" end)
  store:send("sendButtonTapped", function(s) s.messageToSend = "" end)
  store:receive("sendResponse", true)
  store:receive("receivedSocketMessage", "Hi", function(s) s.receivedMessages = { "Hi" } end)
  store:send("messageToSendChanged", "Héllo 👋", function(s) s.messageToSend = "Héllo 👋" end)
  store:send("sendButtonTapped", function(s) s.messageToSend = "" end)
  store:receive("sendResponse", true)
  store:receive("receivedSocketMessage", "Héllo 👋", function(s) s.receivedMessages = { "Hi", "Héllo 👋" } end)
  -- Disconnect from the socket
  store:send("connectButtonTapped", function(s) s.connectivityState = "disconnected" end)
  store:finish()
end)

port("sendFailure", function()
  -- TCA's stub fails the send of a connected socket; a real echo server does not, so the send
  -- fails here as it does for a user who has not connected (or whose socket was closed).
  local store = relua.TestStore(WebSocket, { deps = { websocket = "live" } })
  store:send("messageToSendChanged", "Hi", function(s) s.messageToSend = "Hi" end)
  store:send("sendButtonTapped", function(s) s.messageToSend = "" end)
  store:receive("sendResponse", false, function(s)
    s.alert = { title = "Could not send socket message. Connect to the server first, and try again." }
  end)
  store:finish()
end)

port("connectError", function()
  local store = relua.TestStore(WebSocket, { deps = { websocket = "live" } })
  store:send("urlChanged", "ws://127.0.0.1:1/", function(s) s.url = "ws://127.0.0.1:1/" end)
  store:send("connectButtonTapped", function(s) s.connectivityState = "connecting" end)
  store:receive("didClose", "WebSocket: connection refused (ws://127.0.0.1:1/)", function(s)
    s.connectivityState = "disconnected"
    s.alert = { title = "WebSocket: connection refused (ws://127.0.0.1:1/)" }
  end)
  store:finish()
end)

describe("WebSocket case study against the echo server", function()
  it("a connection the server drops ends the loop with its error", function()
    local store = atEcho("drop")
    store:send("connectButtonTapped", function(s) s.connectivityState = "connecting" end)
    store:receive("didOpen", function(s) s.connectivityState = "connected" end)
    store:send("messageToSendChanged", "one", function(s) s.messageToSend = "one" end)
    store:send("sendButtonTapped", function(s) s.messageToSend = "" end)
    store:receive("sendResponse", true)
    store:receive("receivedSocketMessage", "one", function(s) s.receivedMessages = { "one" } end)
    local lost = "WebSocket: the connection was lost (" .. ECHO .. "drop)"
    store:receive("didClose", lost, function(s)
      s.connectivityState = "disconnected"
      s.alert = { title = lost }
    end)
    store:finish()
  end)

  it("a server that closes properly ends the loop without an error", function()
    local store = atEcho("close")
    store:send("connectButtonTapped", function(s) s.connectivityState = "connecting" end)
    store:receive("didOpen", function(s) s.connectivityState = "connected" end)
    store:send("messageToSendChanged", "one", function(s) s.messageToSend = "one" end)
    store:send("sendButtonTapped", function(s) s.messageToSend = "" end)
    store:receive("sendResponse", true)
    store:receive("receivedSocketMessage", "one", function(s) s.receivedMessages = { "one" } end)
    store:receive("didClose", nil, function(s) s.connectivityState = "disconnected" end)
    store:finish()
  end)

  it("disconnecting cancels the effect, which closes the socket: a send finds none", function()
    local store = connected()
    store:send("connectButtonTapped", function(s) s.connectivityState = "disconnected" end)
    store:send("messageToSendChanged", "Hi", function(s) s.messageToSend = "Hi" end)
    store:send("sendButtonTapped", function(s) s.messageToSend = "" end)
    store:receive("sendResponse", false, function(s)
      s.alert = { title = "Could not send socket message. Connect to the server first, and try again." }
    end)
    store:finish()
  end)
end)

describe("deps.websocket", function()
  local socketSeen
  -- A feature that connects, keeps the socket for the test to look at, and echoes with kinds.
  local Echo = feature "Echo" {
    state = { got = {} },
    actions = { connect = "string", opened = {}, got = "table", say = "table", failed = "string" },
    reduce = on {
      connect = function(_, url, deps)
        return Effect.run(function(send)
          local socket <close> = deps.websocket.connect("echo", url)
          socketSeen = socket
          send("opened")
          for message, kind in socket:receive() do
            -- State holds UTF-8 text only: a binary message as its bytes
            send("got", kind == "text" and { text = message } or { bytes = { message:byte(1, -1) } })
          end
        end):cancellable("echo")
      end,
      say = function(_, what, deps)
        return Effect.run(function(send)
          -- Payloads are UTF-8 text too: bytes come as a list
          local message = what.bytes and string.char(table.unpack(what.bytes)) or what.text
          local ok, err = pcall(deps.websocket.send, "echo", message, what.kind)
          if not ok then send("failed", tostring(err)) end
        end)
      end,
      opened = function() end,
      got = function(s, message) s.got[#s.got + 1] = message end,
      failed = function() end,
    },
  }

  it("messages come back exactly, text and binary, with their kind; cancelling closes the socket", function()
    local store = relua.TestStore(Echo, { deps = { websocket = "live" } })
    local task = store:send("connect", ECHO)
    store:receive("opened")
    store:send("say", { text = "caf\u{e9}" })
    store:receive("got", { text = "caf\u{e9}" }, function(s) s.got = { { text = "café" } } end)
    store:send("say", { bytes = { 0, 255, 1 }, kind = "binary" })
    store:receive("got", { bytes = { 0, 255, 1 } }, function(s) s.got[2] = { bytes = { 0, 255, 1 } } end)
    expect(tostring(socketSeen)).to_be("WebSocket 'echo' (open) " .. ECHO)
    expect(socketSeen.url).to_be(ECHO)
    task:cancel()
    expect(tostring(socketSeen)).to_be("WebSocket 'echo' (closed) " .. ECHO)
    store:send("say", { text = "late" })
    store:receive("failed", "WebSocket: no socket is open under the id 'echo'")
    store:finish()
  end)

  it("checks every argument, naming the call", function()
    local store = relua.TestStore(Echo, { deps = { websocket = "live" } })
    local task = store:send("connect", ECHO)
    store:receive("opened")
    store:send("say", { bytes = { 255 } })
    store:receive("failed", function(err)
      return tostring(err):find("bad argument #2 to 'deps.websocket.send' (deps.websocket.send(id, text[, kind]): the text is not UTF-8 (send it as \"binary\"))", 1, true) ~= nil
    end, nil)
    store:send("say", { text = "x", kind = "xml" })
    store:receive("failed", function(err)
      return tostring(err):find("bad argument #3 to 'deps.websocket.send' (deps.websocket.send(id, text[, kind]): the kind must be \"text\" or \"binary\")", 1, true) ~= nil
    end, nil)
    local Bad = feature "Bad" {
      state = {},
      actions = { go = "string", failed = "string" },
      reduce = on {
        go = function(_, which, deps)
          return Effect.run(function(send)
            local ok, err = pcall(function()
              if which == "connect" then deps.websocket.connect(42)
              elseif which == "url" then deps.websocket.connect("id", {})
              elseif which == "self" then socketSeen.send({}, "x")
              elseif which == "receive" then socketSeen:receive(1)
              end
            end)
            send("failed", ok and "no error" or tostring(err))
          end)
        end,
        failed = function() end,
      },
    }
    local bad = relua.TestStore(Bad, { deps = { websocket = "live" } })
    for which, message in pairs {
      connect = "bad argument #1 to 'deps.websocket.connect' (deps.websocket.connect(id, url): expected an id (a string))",
      url = "bad argument #2 to 'deps.websocket.connect' (deps.websocket.connect(id, url): expected a ws:// URL (a string))",
      self = "calling 'socket:send' on bad self (socket:send(…): call it with ':' on the socket it belongs to)",
      receive = "socket:receive() takes no arguments",
    } do
      bad:send("go", which)
      bad:receive("failed", function(err) return tostring(err):find(message, 1, true) ~= nil end, nil)
    end
    task:cancel()
    store:finish()
    bad:finish()
  end)

  it("is unimplemented in a test store that did not ask for real connections", function()
    local Refused = feature "Refused" {
      state = {},
      actions = { go = {}, done = {} },
      reduce = on {
        go = function(_, _, deps)
          return Effect.run(function(send)
            pcall(deps.websocket.connect, "x", "ws://127.0.0.1:1/")
            send("done")
          end)
        end,
        done = function() end,
      },
    }
    local store = relua.TestStore(Refused)
    -- The effect reads the dependency as its connect starts: within the send or just after it
    expect(function()
      store:send("go")
      store:receive("done")
    end).to_error("Unimplemented dependency: websocket")
    store:skipReceivedActions()
    store:skipInFlightEffects()
    local ok2, err2 = pcall(relua.TestStore, Echo, { deps = { websocket = "fake" } })
    expect(ok2).to_be(false)
    expect(tostring(err2)).to_contain('deps.websocket: expected "live" (real connections)')
  end)
end)
