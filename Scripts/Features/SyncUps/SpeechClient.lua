-- SyncUps' own dependencies (TCA's SpeechClient and openSettings), declared as TCA declares a
-- DependencyKey: a live value and a test value.
--
--   deps.speechClient.authorizationStatus()   "notDetermined" | "denied" | "restricted" | "authorized"
--   deps.speechClient.requestAuthorization()  asks (may wait), answers one of those
--   deps.speechClient.startTask()             a stream of transcripts (each the whole text so far);
--                                             it raises when the recognizer fails
--   deps.openSettings()                       opens the system's settings
--
-- relua has no microphone: the live recognizer transcribes what the store's owner posts as
-- "speech" (in the REPL: =store:post("speech", "Hello")).
local relua = require "relua"

relua.dependency "speechClient" {
  live = {
    authorizationStatus = function() return "authorized" end,
    requestAuthorization = function() return "authorized" end,
    -- Each "speech" posted is the transcript so far (TCA's bestTranscription.formattedString).
    startTask = function() return relua.deps.notifications("speech") end,
  },
  -- In tests: nothing is authorized and nothing is heard, unless the test says otherwise.
  test = {
    authorizationStatus = function() return "denied" end,
    requestAuthorization = function() return "denied" end,
    startTask = function() return function() return nil end end,
  },
}

relua.dependency "openSettings" {
  live = function() end,
}
