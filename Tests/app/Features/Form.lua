-- relua app's browser tests: bound controls of each kind (Tests/app/test_app_browser.py).
local relua = require "relua"
local ui = relua.ui
local binding = ui.binding

return relua.feature "Form" {
  state = { title = "Retro", done = false, minutes = 5, theme = "light" },
  actions = {},
  bindable = { "title", "done", "minutes", "theme" },
  reduce = relua.on {},
  view = function(s)
    return ui.vstack {
      ui.textField("Title", binding.title),
      ui.toggle("Done", binding.done),
      ui.stepper("Minutes", binding.minutes),
      ui.picker("Theme", binding.theme, { "light", "dark" }),
      ui.text(("%s, %s, %d minutes, %s"):format(s.title, s.done and "done" or "not done", s.minutes, s.theme)),
    }
  end,
}
