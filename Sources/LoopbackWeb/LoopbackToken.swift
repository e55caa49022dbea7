/// The secret in a loopback server's URL (the inspector's, `relua app`'s: `?token=HEX`), as Jupyter's: whoever can reach the port
/// but was not given the URL — another user of the machine, a web page probing loopback ports —
/// gets 403. 128 bits from the system's generator (`getrandom`), a new one per server.
package struct LoopbackToken: Sendable, CustomStringConvertible {
  package let hex: String

  package init() {
    var generator = SystemRandomNumberGenerator()
    hex = (0..<2).map { _ in
      let word = generator.next() as UInt64
      let digits = String(word, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }.joined()
  }

  /// A token of your choosing (the fuzz target's, which must be known to its inputs).
  package init(hex: String) { self.hex = hex }

  package var description: String { hex }

  /// Whether `candidate` is the token, in time that does not depend on where they first differ
  /// (a guess must not learn its prefix from the answer's timing).
  package func matches(_ candidate: String?) -> Bool {
    guard let candidate else { return false }
    let given = Array(candidate.utf8)
    let expected = Array(hex.utf8)
    guard given.count == expected.count else { return false }
    var difference: UInt8 = 0
    for index in expected.indices { difference |= given[index] ^ expected[index] }
    return difference == 0
  }
}
