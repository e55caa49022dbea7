/// Runs an element reducer on the element of an identified collection named by an element action;
/// the element runs before the parent. An action for a missing id is a runtime warning and is
/// ignored: neither the element nor the parent runs (TCA lets the parent see it).
/// Elements removed by the action get their effects cancelled.
public struct ForEachReducer<Parent: Reducer, Elements: IdentifiedCollection, Element: Reducer>: Reducer
where Element.State == Elements.Element {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElements: StateLens<Parent.State, Elements>
  @usableFromInline let toElementAction: CaseLens<Parent.Action, IdentifiedAction<Elements.ID, Element.Action>>
  /// Where the operator was declared, for warnings (a Swift `fileID` or a script's `file:line`).
  let fileID: String
  let line: UInt
  var place: String { line == 0 ? fileID : "\(fileID):\(line)" }

  /// Runs the element's reducer for an element action, then the parent's; cancels the effects of
  /// elements the action removed.
  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var elementEffects = Effect<Parent.Action>.none
    if case let .element(id, elementAction)? = toElementAction.extract(action) {
      let effect = toElements.modify(&state) { elements in
        elements.withElement(id: id) { element.reduce(into: &$0, action: elementAction) }
      }
      if let effect {
        if !effect.isNone {
          let embed = toElementAction.embed
          elementEffects = effect.map { embed(.element(id: id, action: $0)) }
            .scoped(to: NavigationID(scope: toElements.identity, id: id))
        }
      } else {
        warnMissing(id, action)
        return .none
      }
    }
    let before = toElements.get(state).idSnapshot
    let parentEffects = parent.reduce(into: &state, action: action)
    let removed = toElements.get(state).removedIDs(since: before)
    if removed.isEmpty {
      return elementEffects.isNone ? parentEffects : .merge(elementEffects, parentEffects)
    }
    return .merge(
      [elementEffects, parentEffects]
        + removed.map { .cancel(child: NavigationID(scope: toElements.identity, id: $0)) })
  }

  @usableFromInline
  func warnMissing(_ id: Elements.ID, _ action: Parent.Action) {
    RuntimeWarnings.report(
      """
      A "forEach" at "\(place)" received an action for a missing element (id: \(id)). \
      Action: \(describe(action)). The action was ignored.
      """
    )
  }

  /// The parent's navigation nodes, then each element's, in order.
  public func navigationNodes(in state: Parent.State) -> [NavigationNode] {
    var elements = toElements.get(state)
    var nodes = parent.navigationNodes(in: state)
    for id in elements.orderedIDs {
      let element = self.element
      nodes += elements.withElement(id: id) { element.navigationNodes(in: $0) } ?? []
    }
    return nodes
  }
}

extension Reducer {
  /// Embeds a collection of element features (see `ForEachReducer`).
  public func forEach<Elements: IdentifiedCollection, ElementAction, Element: Reducer>(
    _ elements: WritableKeyPath<State, Elements> & Sendable,
    action: CaseLens<Action, IdentifiedAction<Elements.ID, ElementAction>>,
    fileID: StaticString = #fileID, line: UInt = #line,
    @ReducerBuilder<Elements.Element, ElementAction> element: () -> Element
  ) -> ForEachReducer<Self, Elements, Element> where Element.State == Elements.Element, Element.Action == ElementAction {
    forEach(StateLens(elements), action: action, fileID: "\(fileID)", line: line, element: element)
  }

  /// Embeds a collection reached through a lens.
  public func forEach<Elements: IdentifiedCollection, ElementAction, Element: Reducer>(
    _ elements: StateLens<State, Elements>,
    action: CaseLens<Action, IdentifiedAction<Elements.ID, ElementAction>>,
    fileID: String = #fileID, line: UInt = #line,
    @ReducerBuilder<Elements.Element, ElementAction> element: () -> Element
  ) -> ForEachReducer<Self, Elements, Element> where Element.State == Elements.Element, Element.Action == ElementAction {
    ForEachReducer(
      parent: self, element: element(), toElements: elements, toElementAction: action, fileID: "\(fileID)", line: line)
  }
}
