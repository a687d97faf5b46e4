import Patchbay
import PatchbayTesting
import Testing

@Reducer
private struct Settings {
  @ObservableState
  struct State: Equatable {
    var name = ""
    var isOn = false
    var nameChanges = 0
    var lastSaved: String?
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case save
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.name) { _, _ in
        Reduce { state, _ in
          state.nameChanges += 1
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .binding(\.isOn):
        return state.isOn ? .send(.save) : .none
      case .binding:
        return .none
      case .save:
        state.lastSaved = state.name
        return .none
      }
    }
  }
}

@Suite struct BindingReducerTests {
  @Test func aBindingActionSetsItsField() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(.binding(.set(\.name, "Blob"))) {
      $0.name = "Blob"
      $0.nameChanges = 1
    }
  }

  @Test func theCaseKeyPathFormSendsTheSameAction() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(\.binding.name, "Blob") {
      $0.name = "Blob"
      $0.nameChanges = 1
    }
    await store.send(\.binding.name, "Blob")  // no change, so no onChange
  }

  @Test func reducersMatchOneFieldWithAKeyPathPattern() async {
    let store = TestStore(initialState: Settings.State(name: "Blob")) { Settings() }
    await store.send(\.binding.isOn, true) { $0.isOn = true }
    await store.receive(.save) { $0.lastSaved = "Blob" }
  }

  @Test func bindingActionsAreEqualByFieldAndValue() {
    typealias Binding = BindingAction<Settings.State>
    #expect(Binding.set(\.name, "a") == .set(\.name, "a"))
    #expect(Binding.set(\.name, "a") != .set(\.name, "b"))
    #expect(Binding.set(\.isOn, true) != .set(\.name, "true"))
  }

  @Test func aBindingActionDumpsAsTheCallThatMadeIt() {
    var output = ""
    customDump(Settings.Action.binding(.set(\.name, "Blob")), to: &output)
    #expect(output.contains(#".set(\.name, "Blob")"#))
  }

  @Test func aWrongBindingAssertionFailsWithTheField() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Settings.State()) { Settings() }
      await store.send(\.binding.name, "Blob") { $0.name = "Blob" }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains(#"binding(.set(\.name, "Blob"))"#) == true)
    #expect(issues.first?.contains("+   nameChanges: 1") == true)
  }
}

@Reducer
private struct Profile {
  @ObservableState
  struct State: Equatable { var name = "" }
  enum Action: ViewAction {
    case view(View)
    @CasePathable
    enum View: BindableAction {
      case binding(BindingAction<State>)
    }
  }
  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
  }
}

@Suite struct ViewActionBindingTests {
  @Test func bindingActionsInsideAViewActionAreApplied() async {
    let store = TestStore(initialState: Profile.State()) { Profile() }
    await store.send(.view(.binding(.set(\.name, "Blob")))) { $0.name = "Blob" }
    await store.send(\.view.binding.name, "Blobby") { $0.name = "Blobby" }
  }
}
