import Foundation

/// `GET /search/repositories` parameters. `language` is added to `q` as the `language:` qualifier.
public struct GitHubSearchQuery: Sendable, Equatable {
  public var q: String
  public var page: Int
  public var perPage: Int
  /// stars, forks, help-wanted-issues or updated; nil: best match.
  public var sort: String?
  /// asc or desc (with `sort`).
  public var order: String?
  public var language: String?

  public init(q: String, page: Int = 1, perPage: Int = 30, sort: String? = nil, order: String? = nil, language: String? = nil) {
    self.q = q
    self.page = page
    self.perPage = perPage
    self.sort = sort
    self.order = order
    self.language = language
  }

  /// The full query text GitHub receives (`tca language:swift`).
  public var fullQuery: String {
    guard let language, !language.isEmpty else { return q }
    return q + " language:" + language
  }

  /// The request URL under `base` (`https://api.github.com`), every value percent-encoded strictly
  /// (`+` as `%2B`, so it is not read as a space).
  public func url(base: URL) -> URL {
    var items = [("q", fullQuery), ("page", String(page)), ("per_page", String(perPage))]
    if let sort { items.append(("sort", sort)) }
    if let order { items.append(("order", order)) }
    let query = items.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
    let path = base.absoluteString.hasSuffix("/") ? "search/repositories" : "/search/repositories"
    return URL(string: base.absoluteString + path + "?" + query)!
  }

  static func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
