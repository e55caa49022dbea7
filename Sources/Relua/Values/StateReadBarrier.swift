/// What a host tells the views when parts of a session's state may be out of date until they are
/// read: it brings them up to date (through `StateViews.value`, logging its writes in the session
/// as any other) before Lua code sees them. The shared holders use it (`SharedReadBarrier`): a
/// share's write is copied into the other holders only when something looks at them.
protocol StateReadBarrier: AnyObject {
  /// Lua code is about to read into the session's state under its field `component` (a view of
  /// something there is being made).
  func willRead(_ views: StateViews, under component: PathComponent) throws
  /// Lua code is about to read the session's whole state (copy it, assign it elsewhere).
  func willReadWhole(_ views: StateViews) throws
}
