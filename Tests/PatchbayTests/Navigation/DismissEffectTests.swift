import Patchbay
import PatchbayTesting
import Testing

@Reducer
private struct Editor {
  @ObservableState
  struct State: Equatable { var text = "" }
  enum Action: Equatable { case closeTapped }
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .closeTapped:
        return .run { _ in await self.dismiss() }
      }
    }
  }
}

@Reducer
private struct Notes {
  @ObservableState
  struct State: Equatable {
    @Presents var editor: Editor.State?
    var path = StackState<Editor.State>()
    var dismissals = 0
  }
  enum Action: Equatable {
    case editor(PresentationAction<Editor.Action>)
    case path(StackActionOf<Editor>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editor(.dismiss), .path(.popFrom):
        state.dismissals += 1
      default:
        break
      }
      return .none
    }
    .ifLet(\.$editor, action: \.editor) { Editor() }
    .forEach(\.path, action: \.path) { Editor() }
  }
}

@Suite struct DismissEffectTests {
  @Test func aPresentedFeatureDismissesItself() async {
    let store = TestStore(initialState: Notes.State(editor: Editor.State())) { Notes() }
    await store.send(\.editor.closeTapped)
    await store.receive(.editor(.dismiss)) {
      $0.editor = nil
      $0.dismissals = 1
    }
  }

  @Test func aScreenOnAStackPopsItself() async {
    let store = TestStore(
      initialState: Notes.State(path: StackState([Editor.State(), Editor.State(text: "top")]))
    ) { Notes() }
    await store.send(\.path[id: 1].closeTapped)
    await store.receive(.path(.popFrom(id: 1))) {
      $0.path.removeLast()
      $0.dismissals = 1
    }
  }

  @Test func dismissingAFeatureNobodyPresentedIsReported() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Editor.State()) { Editor() }
      await store.send(.closeTapped)
      await store.finish()
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("called 'dismiss()', but no parent presented it") == true)
  }

  @Test func aTestCanOverrideDismiss() async {
    let dismissed = LockIsolated(false)
    let store = TestStore(initialState: Editor.State()) {
      Editor()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.setValue(true) }
    }
    await store.send(.closeTapped).finish()
    #expect(dismissed.value)
  }
}
