import Lua

extension Duration {
  /// The longest wait a script may ask for: 9·10⁹ s (about 285 years), so every duration fits in
  /// 64-bit nanoseconds and a deadline on any clock stays representable.
  static let maxLuaSeconds = 9e9

  /// What scripts are told when a number of seconds is refused.
  static var luaSecondsRule: String { "seconds: a finite number from 0 to 9e9" }

  /// Seconds given by Lua (`deps.clock.sleep(0.3)`, `store:advance(0.1)`, `:debounce(id, 0.3)`),
  /// rounded to the nanosecond: durations built from decimal fractions then add up exactly, so
  /// `store:advance(0.1)` then `store:advance(0.2)` reaches a sleep of 0.3 s (as `Double` seconds
  /// converted to attoseconds they can miss it by 10⁻¹⁸ s). Recorded sessions rely on it.
  /// nil for what is not a wait (negative, NaN, infinite, or past `maxLuaSeconds`): `Duration`
  /// itself traps on those, so every number from a script comes through here.
  static func luaSeconds(_ seconds: Double) -> Duration? {
    guard seconds >= 0, seconds <= maxLuaSeconds else { return nil }
    return .nanoseconds(Int64((seconds * 1e9).rounded()))
  }

  /// An optional seconds argument at `position` (nil or absent: nil), checked as `luaSeconds`.
  static func luaSecondsArgument(_ value: LuaValue?, position: Int = 2) throws -> Duration? {
    guard let value, !value.isNil else { return nil }
    guard let duration = value.doubleValue.flatMap(Duration.luaSeconds) else {
      throw LuaError.argument(position: position, message: "expected \(Duration.luaSecondsRule)")
    }
    return duration
  }
}
