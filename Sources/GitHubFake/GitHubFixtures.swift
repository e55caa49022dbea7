// Generated from Fixtures/github/ (the recorded GitHub API bodies, see its README): embedded as
// source so the fake server needs no resource bundle, in tests and in the relua binary alike.
enum GitHubFixtures {
  /// search-repositories.200.example.json
  static let searchRepositories200Example = #"""
    {
      "total_count": 40,
      "incomplete_results": false,
      "items": [
        {
          "id": 3081286,
          "node_id": "MDEwOlJlcG9zaXRvcnkzMDgxMjg2",
          "name": "Tetris",
          "full_name": "dtrupenn/Tetris",
          "owner": {
            "login": "dtrupenn",
            "id": 872147,
            "node_id": "MDQ6VXNlcjg3MjE0Nw==",
            "avatar_url": "https://secure.gravatar.com/avatar/e7956084e75f239de85d3a31bc172ace?d=https://a248.e.akamai.net/assets.github.com%2Fimages%2Fgravatars%2Fgravatar-user-420.png",
            "gravatar_id": "",
            "url": "https://api.github.com/users/dtrupenn",
            "received_events_url": "https://api.github.com/users/dtrupenn/received_events",
            "type": "User",
            "html_url": "https://github.com/octocat",
            "followers_url": "https://api.github.com/users/octocat/followers",
            "following_url": "https://api.github.com/users/octocat/following{/other_user}",
            "gists_url": "https://api.github.com/users/octocat/gists{/gist_id}",
            "starred_url": "https://api.github.com/users/octocat/starred{/owner}{/repo}",
            "subscriptions_url": "https://api.github.com/users/octocat/subscriptions",
            "organizations_url": "https://api.github.com/users/octocat/orgs",
            "repos_url": "https://api.github.com/users/octocat/repos",
            "events_url": "https://api.github.com/users/octocat/events{/privacy}",
            "site_admin": true
          },
          "private": false,
          "html_url": "https://github.com/dtrupenn/Tetris",
          "description": "A C implementation of Tetris using Pennsim through LC4",
          "fork": false,
          "url": "https://api.github.com/repos/dtrupenn/Tetris",
          "created_at": "2012-01-01T00:31:50Z",
          "updated_at": "2013-01-05T17:58:47Z",
          "pushed_at": "2012-01-01T00:37:02Z",
          "homepage": "https://github.com",
          "size": 524,
          "stargazers_count": 1,
          "watchers_count": 1,
          "language": "Assembly",
          "forks_count": 0,
          "open_issues_count": 0,
          "master_branch": "master",
          "default_branch": "master",
          "score": 1,
          "archive_url": "https://api.github.com/repos/dtrupenn/Tetris/{archive_format}{/ref}",
          "assignees_url": "https://api.github.com/repos/dtrupenn/Tetris/assignees{/user}",
          "blobs_url": "https://api.github.com/repos/dtrupenn/Tetris/git/blobs{/sha}",
          "branches_url": "https://api.github.com/repos/dtrupenn/Tetris/branches{/branch}",
          "collaborators_url": "https://api.github.com/repos/dtrupenn/Tetris/collaborators{/collaborator}",
          "comments_url": "https://api.github.com/repos/dtrupenn/Tetris/comments{/number}",
          "commits_url": "https://api.github.com/repos/dtrupenn/Tetris/commits{/sha}",
          "compare_url": "https://api.github.com/repos/dtrupenn/Tetris/compare/{base}...{head}",
          "contents_url": "https://api.github.com/repos/dtrupenn/Tetris/contents/{+path}",
          "contributors_url": "https://api.github.com/repos/dtrupenn/Tetris/contributors",
          "deployments_url": "https://api.github.com/repos/dtrupenn/Tetris/deployments",
          "downloads_url": "https://api.github.com/repos/dtrupenn/Tetris/downloads",
          "events_url": "https://api.github.com/repos/dtrupenn/Tetris/events",
          "forks_url": "https://api.github.com/repos/dtrupenn/Tetris/forks",
          "git_commits_url": "https://api.github.com/repos/dtrupenn/Tetris/git/commits{/sha}",
          "git_refs_url": "https://api.github.com/repos/dtrupenn/Tetris/git/refs{/sha}",
          "git_tags_url": "https://api.github.com/repos/dtrupenn/Tetris/git/tags{/sha}",
          "git_url": "git:github.com/dtrupenn/Tetris.git",
          "issue_comment_url": "https://api.github.com/repos/dtrupenn/Tetris/issues/comments{/number}",
          "issue_events_url": "https://api.github.com/repos/dtrupenn/Tetris/issues/events{/number}",
          "issues_url": "https://api.github.com/repos/dtrupenn/Tetris/issues{/number}",
          "keys_url": "https://api.github.com/repos/dtrupenn/Tetris/keys{/key_id}",
          "labels_url": "https://api.github.com/repos/dtrupenn/Tetris/labels{/name}",
          "languages_url": "https://api.github.com/repos/dtrupenn/Tetris/languages",
          "merges_url": "https://api.github.com/repos/dtrupenn/Tetris/merges",
          "milestones_url": "https://api.github.com/repos/dtrupenn/Tetris/milestones{/number}",
          "notifications_url": "https://api.github.com/repos/dtrupenn/Tetris/notifications{?since,all,participating}",
          "pulls_url": "https://api.github.com/repos/dtrupenn/Tetris/pulls{/number}",
          "releases_url": "https://api.github.com/repos/dtrupenn/Tetris/releases{/id}",
          "ssh_url": "git@github.com:dtrupenn/Tetris.git",
          "stargazers_url": "https://api.github.com/repos/dtrupenn/Tetris/stargazers",
          "statuses_url": "https://api.github.com/repos/dtrupenn/Tetris/statuses/{sha}",
          "subscribers_url": "https://api.github.com/repos/dtrupenn/Tetris/subscribers",
          "subscription_url": "https://api.github.com/repos/dtrupenn/Tetris/subscription",
          "tags_url": "https://api.github.com/repos/dtrupenn/Tetris/tags",
          "teams_url": "https://api.github.com/repos/dtrupenn/Tetris/teams",
          "trees_url": "https://api.github.com/repos/dtrupenn/Tetris/git/trees{/sha}",
          "clone_url": "https://github.com/dtrupenn/Tetris.git",
          "mirror_url": "git:git.example.com/dtrupenn/Tetris",
          "hooks_url": "https://api.github.com/repos/dtrupenn/Tetris/hooks",
          "svn_url": "https://svn.github.com/dtrupenn/Tetris",
          "forks": 1,
          "open_issues": 1,
          "watchers": 1,
          "has_issues": true,
          "has_projects": true,
          "has_pages": true,
          "has_wiki": true,
          "has_downloads": true,
          "archived": true,
          "disabled": true,
          "visibility": "private",
          "license": {
            "key": "mit",
            "name": "MIT License",
            "url": "https://api.github.com/licenses/mit",
            "spdx_id": "MIT",
            "node_id": "MDc6TGljZW5zZW1pdA==",
            "html_url": "https://api.github.com/licenses/mit"
          }
        }
      ]
    }
    """#
  /// search-repositories.422.beyond-1000.json
  static let searchRepositories422Beyond1000 = #"""
    {
      "message": "Only the first 1000 search results are available",
      "documentation_url": "https://docs.github.com/v3/search/",
      "status": "422"
    }
    """#
  /// search-repositories.422.missing-q.json
  static let searchRepositories422MissingQ = #"""
    {
      "message": "Validation Failed",
      "errors": [
        {
          "resource": "Search",
          "field": "q",
          "code": "missing"
        }
      ],
      "documentation_url": "https://docs.github.com/v3/search",
      "status": "422"
    }
    """#
  /// search-repositories.422.invalid-q.json
  static let searchRepositories422InvalidQ = #"""
    {
      "message": "Validation Failed",
      "errors": [
        {
          "message": "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.",
          "resource": "Search",
          "field": "q",
          "code": "invalid"
        }
      ],
      "documentation_url": "https://docs.github.com/v3/search/",
      "status": "422"
    }
    """#
  /// rate-limit.403.primary.json
  static let rateLimit403Primary = #"""
    {
      "message": "API rate limit exceeded for xxx.xxx.xxx.xxx. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
      "documentation_url": "https://developer.github.com/v3/#rate-limiting"
    }
    """#
  /// rate-limit.403.secondary.json
  static let rateLimit403Secondary = #"""
    {
      "message": "You have exceeded a secondary rate limit",
      "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
    }
    """#
  /// get-repository.200.octokit-fixtures.json
  static let getRepository200OctokitFixtures = #"""
    {
      "id": 103703892,
      "node_id": "MDEwOlJlcG9zaXRvcnkxMDM3MDM4OTI=",
      "name": "hello-world",
      "full_name": "octokit-fixture-org/hello-world",
      "private": false,
      "owner": {
        "login": "octokit-fixture-org",
        "id": 31898100,
        "node_id": "MDEyOk9yZ2FuaXphdGlvbjMxODk4MTAw",
        "avatar_url": "https://avatars.githubusercontent.com/u/31898100?v=4",
        "gravatar_id": "",
        "url": "https://api.github.com/users/octokit-fixture-org",
        "html_url": "https://github.com/octokit-fixture-org",
        "followers_url": "https://api.github.com/users/octokit-fixture-org/followers",
        "following_url": "https://api.github.com/users/octokit-fixture-org/following{/other_user}",
        "gists_url": "https://api.github.com/users/octokit-fixture-org/gists{/gist_id}",
        "starred_url": "https://api.github.com/users/octokit-fixture-org/starred{/owner}{/repo}",
        "subscriptions_url": "https://api.github.com/users/octokit-fixture-org/subscriptions",
        "organizations_url": "https://api.github.com/users/octokit-fixture-org/orgs",
        "repos_url": "https://api.github.com/users/octokit-fixture-org/repos",
        "events_url": "https://api.github.com/users/octokit-fixture-org/events{/privacy}",
        "received_events_url": "https://api.github.com/users/octokit-fixture-org/received_events",
        "type": "Organization",
        "site_admin": false
      },
      "html_url": "https://github.com/octokit-fixture-org/hello-world",
      "description": null,
      "fork": false,
      "url": "https://api.github.com/repos/octokit-fixture-org/hello-world",
      "forks_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/forks",
      "keys_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/keys{/key_id}",
      "collaborators_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/collaborators{/collaborator}",
      "teams_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/teams",
      "hooks_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/hooks",
      "issue_events_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/issues/events{/number}",
      "events_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/events",
      "assignees_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/assignees{/user}",
      "branches_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/branches{/branch}",
      "tags_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/tags",
      "blobs_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/git/blobs{/sha}",
      "git_tags_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/git/tags{/sha}",
      "git_refs_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/git/refs{/sha}",
      "trees_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/git/trees{/sha}",
      "statuses_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/statuses/{sha}",
      "languages_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/languages",
      "stargazers_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/stargazers",
      "contributors_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/contributors",
      "subscribers_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/subscribers",
      "subscription_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/subscription",
      "commits_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/commits{/sha}",
      "git_commits_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/git/commits{/sha}",
      "comments_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/comments{/number}",
      "issue_comment_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/issues/comments{/number}",
      "contents_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/contents/{+path}",
      "compare_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/compare/{base}...{head}",
      "merges_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/merges",
      "archive_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/{archive_format}{/ref}",
      "downloads_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/downloads",
      "issues_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/issues{/number}",
      "pulls_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/pulls{/number}",
      "milestones_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/milestones{/number}",
      "notifications_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/notifications{?since,all,participating}",
      "labels_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/labels{/name}",
      "releases_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/releases{/id}",
      "deployments_url": "https://api.github.com/repos/octokit-fixture-org/hello-world/deployments",
      "created_at": "2017-09-15T21:43:08Z",
      "updated_at": "2017-09-19T15:57:54Z",
      "pushed_at": "2017-11-03T20:11:46Z",
      "git_url": "git://github.com/octokit-fixture-org/hello-world.git",
      "ssh_url": "git@github.com:octokit-fixture-org/hello-world.git",
      "clone_url": "https://github.com/octokit-fixture-org/hello-world.git",
      "svn_url": "https://github.com/octokit-fixture-org/hello-world",
      "homepage": null,
      "size": 0,
      "stargazers_count": 0,
      "watchers_count": 0,
      "language": null,
      "has_issues": true,
      "has_projects": true,
      "has_downloads": true,
      "has_wiki": true,
      "has_pages": false,
      "forks_count": 0,
      "mirror_url": null,
      "archived": false,
      "disabled": false,
      "open_issues_count": 0,
      "license": null,
      "allow_forking": true,
      "is_template": false,
      "web_commit_signoff_required": false,
      "topics": [
        "fixtures",
        "hello",
        "hello-world"
      ],
      "visibility": "public",
      "forks": 0,
      "open_issues": 0,
      "watchers": 0,
      "default_branch": "master",
      "permissions": {
        "admin": true,
        "maintain": true,
        "push": true,
        "triage": true,
        "pull": true
      },
      "temp_clone_token": "",
      "allow_squash_merge": true,
      "allow_merge_commit": true,
      "allow_rebase_merge": true,
      "allow_auto_merge": false,
      "delete_branch_on_merge": false,
      "allow_update_branch": false,
      "use_squash_pr_title_as_default": false,
      "organization": {
        "login": "octokit-fixture-org",
        "id": 31898100,
        "node_id": "MDEyOk9yZ2FuaXphdGlvbjMxODk4MTAw",
        "avatar_url": "https://avatars.githubusercontent.com/u/31898100?v=4",
        "gravatar_id": "",
        "url": "https://api.github.com/users/octokit-fixture-org",
        "html_url": "https://github.com/octokit-fixture-org",
        "followers_url": "https://api.github.com/users/octokit-fixture-org/followers",
        "following_url": "https://api.github.com/users/octokit-fixture-org/following{/other_user}",
        "gists_url": "https://api.github.com/users/octokit-fixture-org/gists{/gist_id}",
        "starred_url": "https://api.github.com/users/octokit-fixture-org/starred{/owner}{/repo}",
        "subscriptions_url": "https://api.github.com/users/octokit-fixture-org/subscriptions",
        "organizations_url": "https://api.github.com/users/octokit-fixture-org/orgs",
        "repos_url": "https://api.github.com/users/octokit-fixture-org/repos",
        "events_url": "https://api.github.com/users/octokit-fixture-org/events{/privacy}",
        "received_events_url": "https://api.github.com/users/octokit-fixture-org/received_events",
        "type": "Organization",
        "site_admin": false
      },
      "network_count": 0,
      "subscribers_count": 1
    }
    """#
}
