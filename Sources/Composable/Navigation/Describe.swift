import CustomDump
import Foundation

/// A short one-line description of a value for warnings.
/// A value that describes itself (a host's action type) is shown as it describes itself.
/// Either way it is cut: a description as any text is (relua's values describe themselves
/// elided already), a dumped value as a string in a printout is (`Elision.standard.characters`).
func describe(_ value: Any) -> String {
  if let described = value as? any CustomStringConvertible, Mirror(reflecting: value).displayStyle != .enum {
    return Elision.standard.cut(text: described.description)
  }
  var output = ""
  customDump(value, to: &output, maxDepth: 2)
  let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
  return Elision.standard.cut(oneLine: lines.joined(separator: " "))
}

/// The case name of an enum value (or the type name for a non-enum): a default "kind" identity.
func caseName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum {
    if let label = mirror.children.first?.label { return "\(type(of: value)).\(label)" }
    return "\(type(of: value)).\(value)"
  }
  return String(reflecting: type(of: value))
}
