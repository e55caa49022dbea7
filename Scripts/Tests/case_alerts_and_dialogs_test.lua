-- TCA's AlertsAndConfirmationDialogsTests, ported step for step, and what the REPL shows.
local relua = require "relua"
local Feature = require "Features.CaseStudies.AlertsAndConfirmationDialogs"

local port = require "Tests.Support.TCAPort"("TCA AlertsAndConfirmationDialogsTests")

port("alert", function()
  local store = relua.TestStore(Feature)
  store:send("alertButtonTapped", function(s)
    s.alert = {
      title = "Alert!",
      message = "This is an alert",
      buttons = { { label = "Cancel" }, { label = "Increment", action = "incrementButtonTapped" } },
    }
  end)
  store:send("alert.incrementButtonTapped", function(s)
    s.alert = { title = "Incremented!" }
    s.count = 1
  end)
  store:send("alert.dismiss", function(s) s.alert = nil end)
end)

port("confirmationDialog", function()
  local store = relua.TestStore(Feature)
  store:send("confirmationDialogButtonTapped", function(s)
    s.confirmationDialog = {
      title = "Confirmation dialog",
      message = "This is a confirmation dialog.",
      buttons = {
        { label = "Cancel" },
        { label = "Increment", action = "incrementButtonTapped" },
        { label = "Decrement", action = "decrementButtonTapped" },
      },
    }
  end)
  store:send("confirmationDialog.incrementButtonTapped", function(s)
    s.alert = { title = "Incremented!" }
    s.confirmationDialog = nil
    s.count = 1
  end)
end)

describe("AlertsAndConfirmationDialogs", function()
  it("the alert and the dialog are screens of their own, over the feature", function()
    local store = relua.Store(Feature)
    store:send("confirmationDialogButtonTapped")
    local screens = store:screens()
    expect(#screens).to_be(2)
    expect(screens[2].place).to_be("confirmationDialog")
    expect(screens[2].prefix).to_be("confirmationDialog.")
    store:send("confirmationDialog.decrementButtonTapped")
    expect(store:state().count).to_be(-1)
    expect(store:screens()[2].place).to_be("alert")
  end)

  it("a button that is not declared, or an action while nothing is presented, is refused or ignored", function()
    local store = relua.Store(Feature)
    local ok, err = pcall(store.send, store, "alert.decrementButtonTapped")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("the alert alert has the button actions: incrementButtonTapped")
    store:send("confirmationDialog.incrementButtonTapped")
    expect(store:state().count).to_be(0)
    expect(store:warnings()[1]).to_contain("(AlertAndConfirmationDialog.confirmationDialog)")
    expect(store:warnings()[1]).to_contain("The action was ignored.")
  end)

  it("refuses a button action named dismiss (it would be the presentation's own)", function()
    local ok, err = pcall(function()
      relua.Store(relua.feature "F" { compose = { relua.presents("alert", relua.alert { dismiss = {} }) } })
    end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("the alert 'alert' has a button action 'dismiss'")
    expect(function() relua.confirmationDialog { ["not a name"] = {} } end).to_error("relua.confirmationDialog: bad button action not a name")
  end)
end)
