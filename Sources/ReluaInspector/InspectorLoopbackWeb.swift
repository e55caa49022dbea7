import Foundation
import LoopbackWeb

// The inspector on the shared loopback server part (LoopbackWeb, which `relua app` uses too):
// its names for what it exposes, its page and access rules, its connection fed by its hub.

/// The secret in the inspector's URL.
package typealias InspectorToken = LoopbackToken
/// What a page may cost the inspector (`InspectorServer.start(limits:)`).
package typealias InspectorLimits = LoopbackWebLimits
/// What the inspector's connections went through (`InspectorServer.stats`).
package typealias InspectorConnectionStats = LoopbackWebConnectionStats

extension LoopbackAccess {
  /// The inspector's rules: refusals say "the inspector", the address is relua's `Inspector: …`.
  package static func inspector(token: LoopbackToken) -> LoopbackAccess {
    LoopbackAccess(token: token, name: "inspector", addressLabel: "Inspector", program: "relua")
  }
}

extension LoopbackPage {
  /// The inspector's page: this target's `Page/` resources.
  package static func inspector(token: LoopbackToken) throws -> LoopbackPage {
    try LoopbackPage(token: token, resources: Bundle.module, title: "relua inspector", what: "the inspector's page")
  }
}

extension LoopbackWebConnection {
  /// A connection whose pages are fed by `hub` (the history, then live entries).
  package init(
    access: LoopbackAccess, page: LoopbackPage, hub: InspectorHub, limits: LoopbackWebLimits,
    stats: LoopbackWebConnectionStats, answer: @escaping @MainActor @Sendable (String) -> String
  ) {
    self.init(access: access, page: page, subscribe: { hub.subscribe() }, limits: limits, stats: stats, answer: answer)
  }
}
