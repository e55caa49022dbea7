-- Case study: alerts and confirmation dialogs (TCA's "Alerts and confirmation dialogs").
-- An alert and a confirmation dialog are each presented at a key of their own, without a kind
-- (TCA's `@Presents var alert: AlertState?`): `relua.presents("alert", relua.alert { … })`.
--  * Their state is data: a title, a message and buttons; a button without an action only
--    dismisses (TCA's `role: .cancel`).
--  * A button's action goes to the parent ("alert.incrementButtonTapped"), and the alert or the
--    dialog is dismissed after it — unless the parent presented a new one meanwhile: each one
--    presented is a new one, even with the same text.
local relua = require "relua"
local ui = relua.ui
local feature, on = relua.feature, relua.on

local function incremented(s, by, title)
  s.alert = { title = title }
  s.count = s.count + by
end

return feature "AlertAndConfirmationDialog" {
  state = { count = 0 },

  actions = { alertButtonTapped = {}, confirmationDialogButtonTapped = {} },

  compose = {
    relua.presents("alert", relua.alert { incrementButtonTapped = {} }),
    relua.presents("confirmationDialog",
      relua.confirmationDialog { incrementButtonTapped = {}, decrementButtonTapped = {} }),
  },

  reduce = on {
    alertButtonTapped = function(s)
      s.alert = {
        title = "Alert!",
        message = "This is an alert",
        buttons = { { label = "Cancel" }, { label = "Increment", action = "incrementButtonTapped" } },
      }
    end,
    ["alert.incrementButtonTapped"] = function(s) incremented(s, 1, "Incremented!") end,
    confirmationDialogButtonTapped = function(s)
      s.confirmationDialog = {
        title = "Confirmation dialog",
        message = "This is a confirmation dialog.",
        buttons = {
          { label = "Cancel" },
          { label = "Increment", action = "incrementButtonTapped" },
          { label = "Decrement", action = "decrementButtonTapped" },
        },
      }
    end,
    ["confirmationDialog.incrementButtonTapped"] = function(s) incremented(s, 1, "Incremented!") end,
    ["confirmationDialog.decrementButtonTapped"] = function(s) incremented(s, -1, "Decremented!") end,
  },

  view = function(s)
    return ui.hstack {
      ("Count: %d  "):format(s.count),
      ui.button("Alert", "alertButtonTapped"),
      ui.button("Confirmation dialog", "confirmationDialogButtonTapped"),
    }
  end,
}
