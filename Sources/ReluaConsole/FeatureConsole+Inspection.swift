import Composable
import Foundation
import Relua

/// The REPL's feature mode as an inspector's page drives it (`InspectedSession`, through
/// `ConsoleSession`): what a page does, the REPL prints as if typed — `(inspector) :action` then
/// the diff and the screen — so the page and the prompt stay in step whichever side acts.
extension FeatureConsole {
  func inspectionLive() -> InspectionLive {
    // The views are the script's Lua: Ctrl-C stops one that does not end, as at the prompt.
    var live = InterruptSignal.armed(session.lua) { InspectionLive(feature: definition, store: store.store, host: session.host) }
    live.canTravel = recording == nil
    export?.describe(in: &live)
    return live
  }

  func inspectorSend(_ action: String, payload: Value) throws {
    let output = session.output
    output.write(output.styled("(inspector) :" + action + (payload.isNull ? "" : " " + payload.luaLiteral(.oneLine.elided())), .dim))
    let failure = asCommand {
      let send = { self.perform { try self.store.send(action, payload: payload) } }
      return eventTap.map { $0.sending(from: .page, send) } ?? send()
    }
    if let failure { throw InspectionRefusal(ConsoleSession.message(of: failure)) }
  }

  func inspectorJump(to entry: Int, state: Value) throws {
    if recording != nil {
      throw InspectionRefusal("a jump changes the state without an action, which a recorded test cannot replay; :stop the recording first")
    }
    do {
      try FeatureStateCheck.check(state, against: definition)
    } catch let error as ReluaError {
      throw InspectionRefusal("the state after #\(entry) does not fit the feature as it is now (reloaded?): \(error.fullDescription)")
    }
    let output = session.output
    output.write(output.styled("(inspector) jump to the state after #\(entry)", .dim))
    asCommand {
      past.append(currentState)
      future.removeAll()
      restore(state, reason: .jump, jumpedTo: entry)
    }
  }

  func inspectorCancel(effect id: Int) throws {
    guard let effect = store.store.runningEffects.first(where: { $0.id == id }), store.store.cancelEffect(id) else {
      throw InspectionRefusal("no effect #\(id) is running")
    }
    let output = session.output
    output.write(output.styled("(inspector) cancelled effect #\(effect.id)" + (effect.cancelIDs.isEmpty ? "" : " (" + effect.cancelIDs.joined(separator: ", ") + ")"), .dim))
  }

  func inspectorExport() throws -> (fileName: String, text: String) {
    guard let export else { throw InspectionRefusal("nothing is recorded for an export") }
    return try export.test(of: store.store)
  }

  func waitForEffectsChange(from shown: @escaping () -> [Int], timeout: Duration) async {
    await store.store.waitForRunningEffects(toDifferFrom: shown, timeout: timeout)
  }

}
