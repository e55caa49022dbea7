import Foundation

/// Why a GitHub request failed, in words a user understands (`description`).
public enum GitHubError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum RateLimit: String, Sendable, Equatable { case primary, secondary }

  /// No answer: the network, the connection, DNS.
  case transport(String)
  /// No answer within the client's timeout (seconds).
  case timeout(Double)
  /// An error status, with GitHub's message and the messages of its `errors` (422).
  case httpStatus(Int, message: String, errors: [String])
  /// Rate limited: primary (wait until `resetAt`) or secondary (wait `retryAfter` seconds).
  case rateLimited(RateLimit, resetAt: Date?, retryAfter: Double?)
  /// The body was not what the API documents.
  case decoding(String)

  public var description: String {
    switch self {
    case .transport(let message): return "GitHub could not be reached: \(message)."
    case .timeout(let seconds): return "The request to GitHub timed out after \(Self.format(seconds)) s."
    case .httpStatus(let status, let message, let errors):
      let details = errors.isEmpty ? message : errors.joined(separator: " ")
      if status == 422 { return "GitHub rejected the search: \(details)" }
      if status >= 500 { return "GitHub is unavailable (\(status)): \(details)" }
      return "GitHub answered \(status): \(details)"
    case .rateLimited(.primary, let resetAt, _):
      guard let resetAt else { return "GitHub's search rate limit is exhausted; try again in a minute." }
      let seconds = max(0, Int(resetAt.timeIntervalSinceNow.rounded(.up)))
      return "GitHub's search rate limit is exhausted; it resets in \(seconds) s."
    case .rateLimited(.secondary, _, let retryAfter):
      return "GitHub asks to slow down (secondary rate limit); retry in \(retryAfter.map { Self.format($0) } ?? "60") s."
    case .decoding(let message): return "GitHub's answer could not be read: \(message)"
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
