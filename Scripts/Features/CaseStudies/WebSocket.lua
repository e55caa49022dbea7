-- Case study: a web socket (TCA's "Web socket"). Connect to a WebSocket echo server, send a
-- message, and the server answers with the exact message sent in. The connecting effect owns the
-- socket (`deps.websocket.connect(id, url)`, a `<close>` variable) and iterates what it receives
-- for as long as it lives; the send button's effect sends through the socket's id. Disconnecting
-- cancels the effects of that id: the socket is closed with its effect.
--
-- The echo server is on loopback (`Scripts/websocket-echo`, port 8766, for the REPL; the tests
-- start their own on a port of their own, relua.testing.websocketEcho()): TCA's public echo
-- server needs the internet and TLS. A connection that fails, or is lost, shows why in an alert
-- (TCA's only disconnects); TCA's pings every 10 seconds are left out (the server needs none).
local relua = require "relua"
local ui = relua.ui
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local SOCKET = "webSocket"

-- An error as the user reads it: without the script place before it.
local function reason(err)
  return (tostring(err):gsub("^[^\n]-:%d+: ", ""))
end

return feature "WebSocket" {
  state = {
    connectivityState = "disconnected",  -- "connected" | "connecting" | "disconnected"
    messageToSend = "",
    receivedMessages = {},
    url = "ws://127.0.0.1:8766/",
  },

  actions = {
    connectButtonTapped = {},
    messageToSendChanged = "string",
    receivedSocketMessage = "string",
    sendButtonTapped = {},
    sendResponse = "boolean",
    urlChanged = "string",
    didOpen = {},
    didClose = "string?",  -- why, if the connection failed or was lost
  },

  compose = { relua.presents("alert", relua.alert {}) },

  reduce = on {
    connectButtonTapped = function(s, _, deps)
      if s.connectivityState ~= "disconnected" then
        s.connectivityState = "disconnected"
        return Effect.cancel(SOCKET)
      end
      s.connectivityState = "connecting"
      local url = s.url
      return Effect.run(function(send)
        local ok, err = pcall(function()
          local socket <close> = deps.websocket.connect(SOCKET, url)
          send("didOpen")
          for message, kind in socket:receive() do
            if kind == "text" then send("receivedSocketMessage", message) end
          end
        end)
        send("didClose", not ok and reason(err) or nil)
      end):cancellable(SOCKET)
    end,

    messageToSendChanged = function(s, text) s.messageToSend = text end,
    urlChanged = function(s, url) s.url = url end,

    receivedSocketMessage = function(s, message) s.receivedMessages[#s.receivedMessages + 1] = message end,

    sendButtonTapped = function(s, _, deps)
      local message = s.messageToSend
      s.messageToSend = ""
      return Effect.run(function(send)
        send("sendResponse", (pcall(deps.websocket.send, SOCKET, message)))
      end):cancellable(SOCKET)
    end,

    sendResponse = function(s, didSucceed)
      if not didSucceed then
        s.alert = { title = "Could not send socket message. Connect to the server first, and try again." }
      end
    end,

    didOpen = function(s)
      s.connectivityState = "connected"
      s.receivedMessages = {}
    end,

    didClose = function(s, why)
      s.connectivityState = "disconnected"
      if why then s.alert = { title = why } end
      return Effect.cancel(SOCKET)
    end,
  },

  -- The message and the URL are set by their actions (messageToSendChanged, urlChanged): the
  -- feature has no bindings.
  view = function(s)
    local labels = { connected = "Disconnect", connecting = "Connecting...", disconnected = "Connect" }
    local received = {}
    for i = #s.receivedMessages, 1, -1 do received[#received + 1] = s.receivedMessages[i] end
    return ui.vstack {
      ui.hstack {
        ui.button(labels[s.connectivityState], "connectButtonTapped"),
        ("  %s   message: %q"):format(s.url, s.messageToSend),
        ui.button("Send", "sendButtonTapped"),
      },
      ui.text(("Status: %s"):format(s.connectivityState)),
      ui.section("Received messages:", #received > 0 and { table.concat(received, "\n") } or {}),
    }
  end,
}
