import Composable

/// A running store an inspector shows and drives: the REPL's (`ConsoleSession`) or one a Swift
/// program made (`ReluaStore`). What it goes through reaches the inspector as `ConsoleEvent`s;
/// these are what a page asks of it. Each call runs on the main actor, between the store's sends.
///
/// A request the session refuses throws `InspectionRefusal` with the text the page shows: for a
/// bad action or payload, the same text the REPL prints for it typed (state unchanged).
@MainActor
package protocol InspectedSession: AnyObject {
  /// What the page draws beside the log, as it is now.
  func inspectionLive() -> InspectionLive
  /// Sends `action` (a path from the root) with `payload`, validated as a typed action is.
  func inspectorSend(_ action: String, payload: Value) throws
  /// Puts back `state`, the state after the log's entry `entry` (time travel: the session
  /// follows as `:undo` does, and tells the event observer of a `jumped` event).
  func inspectorJump(to entry: Int, state: Value) throws
  /// Cancels the running effect `id` (`InspectionLive.effects`).
  func inspectorCancel(effect id: Int) throws
  /// The session as an exhaustive test, as `:record` writes it: a file name and its text.
  func inspectorExport() throws -> (fileName: String, text: String)
  /// The effects in flight now (cheaper than all of `inspectionLive`).
  var runningEffects: [RunningEffect] { get }
  /// Returns when the effects in flight are not those `shown` returns (what the pages were last
  /// told), or after `timeout`.
  func waitForEffectsChange(from shown: @escaping () -> [Int], timeout: Duration) async
}

/// A page's request the session did not carry out, and why (shown on the page as it is).
package struct InspectionRefusal: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
