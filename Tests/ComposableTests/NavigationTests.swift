import Composable
import XCTest

struct Child: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case increment, closeTapped, startTimer, tick }
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.clock) var clock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1; return .none
    case .closeTapped:
      let dismiss = self.dismiss
      return .run { _ in await dismiss() }
    case .startTimer:
      let clock = self.clock
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick: state.count += 1; return .none
    }
  }
}

struct Sheet: Reducer {
  struct State: Equatable {
    var child: PresentationState<Child.State> = nil
    var alert: PresentationState<AlertState<AlertAction>> = nil
    var log: [String] = []
  }
  enum AlertAction: Equatable { case confirm, again }
  enum Action: Equatable {
    case present, child(PresentationAction<Child.Action>), showAlert, alert(PresentationAction<AlertAction>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .present: state.child = PresentationState(Child.State())
      case .child(.dismiss): state.log.append("dismiss saw \(state.child.wrappedValue?.count ?? -1)")
      case .showAlert:
        state.alert = PresentationState(AlertState(title: "Sure?", buttons: [.init(label: "OK", action: .confirm)]))
      case .alert(.presented(.confirm)): state.log.append("confirmed")
      case .alert(.presented(.again)):
        state.alert = PresentationState(AlertState(title: "Again!"))
      case .child, .alert: break
      }
      return .none
    }
    .ifLet(\.child, action: CaseLens(Action.child) { if case let .child(a) = $0 { a } else { nil } }) { Child() }
    .ifLet(\.alert, action: CaseLens(Action.alert) { if case let .alert(a) = $0 { a } else { nil } })
  }
}

@MainActor
final class NavigationTests: XCTestCase {
  func testParentDismissalSeesChildThenClearsAndCancels() async {
    let clock = TestStoreClock()
    let store = TestStore(initialState: Sheet.State(), reducer: Sheet()) { $0.clock = clock }
    await store.send(.present) { $0.child = PresentationState(Child.State()) }
    await store.send(.child(.presented(.startTimer)))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.child(.presented(.tick))) { $0.child.wrappedValue?.count = 1 }
    await store.send(.child(.dismiss)) {
      $0.child = nil
      $0.log = ["dismiss saw 1"]
    }
    await store.advance(clock, by: .seconds(5))
    await store.finish()
  }

  func testChildDismissesThroughDependency() async {
    let store = TestStore(initialState: Sheet.State(), reducer: Sheet())
    await store.send(.present) { $0.child = PresentationState(Child.State()) }
    await store.send(.child(.presented(.closeTapped)))
    await store.receive(.child(.dismiss)) {
      $0.child = nil
      $0.log = ["dismiss saw 0"]
    }
    await store.finish()
  }

  func testAlertDismissedAfterButtonAction() async {
    let store = TestStore(initialState: Sheet.State(), reducer: Sheet())
    await store.send(.showAlert) {
      $0.alert = PresentationState(AlertState(title: "Sure?", buttons: [.init(label: "OK", action: .confirm)]))
    }
    await store.send(.alert(.presented(.confirm))) {
      $0.alert = nil
      $0.log = ["confirmed"]
    }
  }

  func testNewAlertSetWhileHandlingOldOneSurvives() async {
    let store = TestStore(initialState: Sheet.State(), reducer: Sheet())
    await store.send(.showAlert) {
      $0.alert = PresentationState(AlertState(title: "Sure?", buttons: [.init(label: "OK", action: .confirm)]))
    }
    await store.send(.alert(.presented(.again))) { $0.alert = PresentationState(AlertState(title: "Again!")) }
  }

  func testActionForDismissedDestinationIsWarning() async {
    let store = Store(initialState: Sheet.State(), reducer: Sheet())
    store.send(.child(.presented(.increment)))
    XCTAssertEqual(store.warnings.count, 1)
    XCTAssert(store.warnings[0].message.contains("NavigationTests.swift:"))
  }

  // MARK: Destination kinds and identity

  struct Destinations: Reducer {
    struct State: Equatable { var destination: PresentationState<Destination.State> = nil }
    enum Action: Equatable { case present(Destination.State), swap, destination(PresentationAction<Destination.Action>) }
    struct Destination: Reducer {
      enum State: Equatable { case counter(Child.State), animations(Child.State) }
      enum Action: Equatable { case counter(Child.Action), animations(Child.Action) }
      var body: some Reducer<State, Action> {
        Scope(stateCase: CaseLens(State.counter) { if case let .counter(s) = $0 { s } else { nil } },
              action: CaseLens(Action.counter) { if case let .counter(a) = $0 { a } else { nil } }) { Child() }
        Scope(stateCase: CaseLens(State.animations) { if case let .animations(s) = $0 { s } else { nil } },
              action: CaseLens(Action.animations) { if case let .animations(a) = $0 { a } else { nil } }) { Child() }
      }
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case let .present(destination): state.destination = PresentationState(destination)
        case .swap:
          switch state.destination.wrappedValue {
          case let .counter(s)?: state.destination = PresentationState(.animations(s))
          case let .animations(s)?: state.destination = PresentationState(.counter(s))
          case nil: break
          }
        case .destination: break
        }
        return .none
      }
      .ifLet(\.destination, action: CaseLens(Action.destination) { if case let .destination(a) = $0 { a } else { nil } }) {
        Destination()
      }
    }
  }

  func testSwappingKindChangesIdentityAndCancelsEffects() async {
    let clock = TestStoreClock()
    let store = TestStore(initialState: Destinations.State(), reducer: Destinations()) { $0.clock = clock }
    await store.send(.present(.counter(.init()))) { $0.destination = PresentationState(.counter(.init())) }
    await store.send(.destination(.presented(.counter(.startTimer))))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.destination(.presented(.counter(.tick)))) {
      $0.destination = PresentationState(.counter(.init(count: 1)))
    }
    // Editing contents keeps the identity: the timer keeps running.
    await store.send(.destination(.presented(.counter(.increment)))) {
      $0.destination = PresentationState(.counter(.init(count: 2)))
    }
    await store.advance(clock, by: .seconds(1))
    await store.receive(.destination(.presented(.counter(.tick)))) {
      $0.destination = PresentationState(.counter(.init(count: 3)))
    }
    // Changing the kind gives a new identity: the old timer is cancelled.
    await store.send(.swap) { $0.destination = PresentationState(.animations(.init(count: 3))) }
    await store.advance(clock, by: .seconds(5))
    await store.finish()
  }

  // MARK: Stack

  struct Stacked: Reducer {
    struct State: Equatable { var path = StackState<Child.State>(); var log: [String] = [] }
    enum Action: Equatable { case push, path(StackAction<Child.State, Child.Action>) }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .push: state.path.append(Child.State())
        case let .path(.popFrom(id)): state.log.append("pop \(id.rawValue) of \(state.path.count)")
        case let .path(.push(id, _)): state.log.append("push \(id.rawValue) of \(state.path.count)")
        case .path: break
        }
        return .none
      }
      .forEach(\.path, action: CaseLens(Action.path) { if case let .path(a) = $0 { a } else { nil } }) { Child() }
    }
  }

  func testStackPopFromRemovesElementAndEverythingAfter() async {
    let store = TestStore(initialState: Stacked.State(), reducer: Stacked())
    await store.send(.push) { $0.path.append(Child.State()) }
    await store.send(.push) { $0.path.append(Child.State()) }
    await store.send(.push) { $0.path.append(Child.State()) }
    XCTAssertEqual(store.state.path.ids, [0, 1, 2])
    await store.send(.path(.element(id: 2, action: .increment))) { $0.path[id: 2]?.count = 1 }
    XCTAssertEqual(Stacked().navigationTree(store.state).children.count, 3)
    await store.send(.path(.popFrom(id: 1))) {
      $0.path.pop(from: 1)
      $0.log = ["pop 1 of 3"]
    }
    XCTAssertEqual(store.state.path.ids, [0])
  }

  func testStackElementDismissesItself() async {
    let store = TestStore(initialState: Stacked.State(), reducer: Stacked())
    await store.send(.push) { $0.path.append(Child.State()) }
    await store.send(.push) { $0.path.append(Child.State()) }
    await store.send(.path(.element(id: 1, action: .closeTapped)))
    await store.receive(.path(.popFrom(id: 1))) {
      $0.path.pop(from: 1)
      $0.log = ["pop 1 of 2"]
    }
    await store.finish()
  }

  func testStackRemovalCancelsElementEffects() async {
    let clock = TestStoreClock()
    let store = TestStore(initialState: Stacked.State(), reducer: Stacked()) { $0.clock = clock }
    await store.send(.push) { $0.path.append(Child.State()) }
    await store.send(.path(.element(id: 0, action: .startTimer)))
    await store.advance(clock, by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.count = 1 }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path.removeAll()
      $0.log = ["pop 0 of 1"]
    }
    await store.advance(clock, by: .seconds(3))
    await store.finish()
  }

  func testActionForMissingStackElementIsWarning() async {
    let store = Store(initialState: Stacked.State(), reducer: Stacked())
    store.send(.path(.element(id: 7, action: .increment)))
    XCTAssertEqual(store.warnings.count, 1)
    XCTAssert(store.warnings[0].message.contains("missing element"))
  }

  /// TCA at HEAD: the element is in the stack when the parent handles the push; an id already in
  /// the stack is a warning and pushes nothing (the parent still sees the action).
  func testPushInsertsBeforeTheParentRunsAndRefusesAnIDInUse() async {
    let store = TestStore(initialState: Stacked.State(), reducer: Stacked())
    await store.send(.path(.push(id: 3, state: Child.State(count: 5)))) {
      $0.path.insert(Child.State(count: 5), id: 3)
      $0.log = ["push 3 of 1"]
    }
    XCTAssertTrue(store.warnings.isEmpty)
    await store.send(.path(.push(id: 3, state: Child.State()))) { $0.log.append("push 3 of 1") }
    XCTAssertEqual(store.warnings.count, 1)
    XCTAssert(store.warnings[0].message.contains("already contains (id: #3)"), store.warnings[0].message)
    XCTAssertEqual(store.state.path[id: 3]?.count, 5)
  }
}
