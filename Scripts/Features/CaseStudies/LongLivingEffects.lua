-- Case study: long-living effects (TCA's "Long-living effects"). When the screen appears
-- (`task`), an effect starts that counts the screenshots taken: a stream of notifications the
-- store's owner posts (`store:post("userDidTakeScreenshot")`: a test, the REPL, an embedding
-- program), iterated for as long as the effect lives. The effect ends when the screen goes away:
-- the task of the send that started it is cancelled (the loop's source is let go with it).
local relua = require "relua"
local ui = relua.ui
local feature, on, Effect = relua.feature, relua.on, relua.Effect

return feature "LongLivingEffects" {
  state = { screenshotCount = 0 },

  actions = { task = {}, userDidTakeScreenshotNotification = {} },
  task = "task",  -- TCA's .task { await store.send(.task).finish() }: relua repl sends it as the screen appears

  reduce = on {
    task = function(_, _, deps)
      return Effect.run(function(send)
        for _ in deps.notifications("userDidTakeScreenshot") do
          send("userDidTakeScreenshotNotification")
        end
      end)
    end,
    userDidTakeScreenshotNotification = function(s) s.screenshotCount = s.screenshotCount + 1 end,
  },

  view = function(s)
    return ui.vstack {
      ui.text(("A screenshot of this screen has been taken %d times."):format(s.screenshotCount)),
      ui.replHint('(=store:post("userDidTakeScreenshot"))'),
    }
  end,
}
