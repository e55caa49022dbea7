-- Case study: concurrency inside one effect (TCA's `withTaskGroup` inside `.run`), as SyncUps'
-- recording screen does it. When the screen starts (`onTask`), one named effect asks for speech
-- authorization, then runs two children side by side with `relua.taskGroup`: the transcript, a stream
-- of what the store's owner posts (`store:post("speech", "Hello")`: a test, the REPL), and a timer
-- that ends the meeting after `duration` seconds. The effect goes on when both are done; ending
-- the meeting early cancels it, and its children with it.
local relua = require "relua"
local feature, on, Effect, ui = relua.feature, relua.on, relua.Effect, relua.ui

relua.dependency "speech" {
  live = { requestAuthorization = function() return "authorized" end },
  test = { requestAuthorization = function() return "denied" end },
}

return feature "ConcurrentEffects" {
  state = { duration = 5, secondsElapsed = 0, transcript = "", isRecording = false },

  actions = { onTask = {}, timerTick = {}, speechResult = "string", meetingEnded = {}, endMeetingTapped = {} },

  reduce = on {
    onTask = function(s, _, deps)
      s.isRecording = true
      local duration = s.duration
      return Effect.run(function(send)
        local authorization = deps.speech.requestAuthorization()
        relua.taskGroup(function(group)
          if authorization == "authorized" then
            group:spawn(function()
              for text in deps.notifications("speech") do
                if text == "." then break end   -- the recognizer's end
                send("speechResult", text)
              end
            end)
          end
          group:spawn(function()
            for tick in deps.clock.timer(1) do
              send("timerTick")
              if tick == duration then break end
            end
          end)
        end)
        send("meetingEnded")
      end, { name = "recording" }):cancellable("recording", true)
    end,
    timerTick = function(s) s.secondsElapsed = s.secondsElapsed + 1 end,
    speechResult = function(s, text) s.transcript = s.transcript == "" and text or s.transcript .. " " .. text end,
    meetingEnded = function(s) s.isRecording = false end,
    endMeetingTapped = function(s)
      s.isRecording = false
      return Effect.cancel("recording")
    end,
  },

  view = function(s)
    return ui.vstack {
      ("%s %d/%d s   transcript: %q"):format(
        s.isRecording and "Recording" or "Stopped", s.secondsElapsed, s.duration, s.transcript),
      ui.replHint('(=store:post("speech", "Hello"); "." ends it)'),
      s.isRecording and ui.button("End meeting", "endMeetingTapped") or ui.button("Start", "onTask"),
    }
  end,
}
