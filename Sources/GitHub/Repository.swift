/// A search result page (`GET /search/repositories`).
public struct RepositorySearchResult: Decodable, Sendable, Equatable {
  public var totalCount: Int
  public var incompleteResults: Bool
  public var items: [Repository]

  enum CodingKeys: String, CodingKey {
    case totalCount = "total_count", incompleteResults = "incomplete_results", items
  }

  public init(totalCount: Int, incompleteResults: Bool = false, items: [Repository]) {
    self.totalCount = totalCount
    self.incompleteResults = incompleteResults
    self.items = items
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    totalCount = try container.decode(Int.self, forKey: .totalCount)
    incompleteResults = try container.decodeIfPresent(Bool.self, forKey: .incompleteResults) ?? false
    items = try container.decodeIfPresent([Repository].self, forKey: .items) ?? []
  }
}

/// A repository as search results give it. Everything GitHub documents as nullable (description,
/// language, license, homepage, owner) is optional, and so are the counts, so decoding never fails
/// on a null or missing field.
public struct Repository: Decodable, Sendable, Equatable {
  public struct Owner: Decodable, Sendable, Equatable {
    public var login: String
    public var avatarURL: String?
    enum CodingKeys: String, CodingKey { case login, avatarURL = "avatar_url" }
  }

  public struct License: Decodable, Sendable, Equatable {
    public var key: String?
    public var name: String?
    public var spdxID: String?
    enum CodingKeys: String, CodingKey { case key, name, spdxID = "spdx_id" }
  }

  public var id: Int
  public var name: String
  public var fullName: String
  public var owner: Owner?
  public var description: String?
  public var htmlURL: String?
  public var homepage: String?
  public var stargazersCount: Int?
  public var forksCount: Int?
  public var language: String?
  public var license: License?

  enum CodingKeys: String, CodingKey {
    case id, name, owner, description, homepage, language, license
    case fullName = "full_name", htmlURL = "html_url", stargazersCount = "stargazers_count", forksCount = "forks_count"
  }
}
