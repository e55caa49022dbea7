import Foundation
import LoopbackListener
import LoopbackWeb
import Relua
import WebSocket

/// A Lua feature served as a web app (`relua app FEATURE.lua`): a page of real buttons, fields,
/// lists, a navigation bar with Back, sheets and alerts, drawn from the store's screens and their
/// view trees, updated over a WebSocket by patches of the trees (docs/DSL.md, "Views").
///
///     let store = try runtime.makeStore(try runtime.loadFeature(file: "Scripts/Features/GuessingGame.lua"))
///     let app = try await ReluaWebApp.start(serving: store)
///     print("App:", app.url)   // open it in a browser
///     …
///     await app.stop()
///
/// It listens on 127.0.0.1 only, with the rules the inspector has too (LoopbackWeb's): the URL carries a random token
/// without which every request (and the WebSocket) is refused with 403 saying why, `Host` must
/// name the server, and a WebSocket must come from its own page (`Origin`). What a page sends is
/// checked before use, and a control is worked only if it is in the tree last sent to the page.
@MainActor
public final class ReluaWebApp {
  private let session: WebAppSession
  private let listener: LoopbackListener
  private let token: LoopbackToken
  private let port: UInt16

  /// The page's address, with its token.
  public var url: URL { URL(string: "http://127.0.0.1:\(port)/?token=\(token.hex)")! }

  private init(session: WebAppSession, listener: LoopbackListener, token: LoopbackToken, port: UInt16) {
    self.session = session
    self.listener = listener
    self.token = token
    self.port = port
  }

  /// Why the app could not start.
  public struct StartFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
  }

  /// Serves `store` on 127.0.0.1:`port` (0: a free port the system picks), its screens drawn at
  /// once and kept current; screens' tasks run while they are shown.
  public static func start(serving store: ReluaStore, port: UInt16 = 0) async throws -> ReluaWebApp {
    let token = LoopbackToken()
    let access = LoopbackAccess(token: token, name: "app", addressLabel: "App", program: "relua")
    var page = try LoopbackPage(token: token, resources: Bundle.module, title: "relua app", what: "relua app's page")
    page.imageSources = "'self' data: https: http:"
    let feed = WebAppFeed()
    let session = WebAppSession(store: store, feed: feed)
    session.start()
    let limits = LoopbackWebLimits.standard
    let stats = LoopbackWebConnectionStats()
    let connection = LoopbackWebConnection(
      access: access, page: page, subscribe: { feed.subscribe() }, limits: limits, stats: stats
    ) { text in session.answer(text) }
    let listener = LoopbackListener()
    let bound: UInt16
    do {
      bound = try connection.listen(with: listener, port: port)
    } catch {
      session.stop()
      throw StartFailure(description: error.description)
    }
    return ReluaWebApp(session: session, listener: listener, token: token, port: bound)
  }

  /// Stops serving: the pages' WebSockets end (a close frame, 1001), the screens' tasks are cancelled.
  public func stop() async {
    session.stop()
    listener.stop()
    session.feed.close()
  }
}
