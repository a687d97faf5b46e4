import Patchbay
import PatchbayTesting
import Testing

/// A row that holds rows of its own kind, through `forEach` (TCA's "Recursion" case study).
private struct Row: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var name = ""
    var rows: IdentifiedArrayOf<State> = []
  }
  @CasePathable indirect enum Action: Equatable {
    case addRow(id: Int)
    case rename(String)
    case rows(IdentifiedActionOf<Row>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addRow(let id): state.rows.append(State(id: id))
      case .rename(let name): state.name = name
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Self() }
  }
}

/// A sheet that presents a sheet of its own kind, through the presentation `ifLet`.
private struct Sheet: Reducer {
  struct State: Equatable {
    var depth = 0
    var closed = 0
    @PresentationState var child: State?
  }
  @CasePathable indirect enum Action: Equatable {
    case open
    case child(PresentationAction<Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open: state.child = State(depth: state.depth + 1)
      case .child(.dismiss): state.closed += 1
      case .child: break
      }
      return .none
    }
    .ifLet(\.$child, action: \.child) { Self() }
  }
}

/// A folder whose contents (a `Scope`, unlabeled) hold folders: recursion through two types.
private struct Folder: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var contents = Contents.State()
  }
  @CasePathable indirect enum Action: Equatable { case contents(Contents.Action) }
  var body: some Reducer<State, Action> {
    Scope(\.contents, action: \.contents) { Contents() }
  }
}

private struct Contents: Reducer {
  struct State: Equatable {
    var files: [String] = []; var folders: IdentifiedArrayOf<Folder.State> = []
  }
  @CasePathable indirect enum Action: Equatable {
    case addFile(String)
    case addFolder(id: Int)
    case folders(IdentifiedActionOf<Folder>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addFile(let name): state.files.append(name)
      case .addFolder(let id): state.folders.append(Folder.State(id: id))
      case .folders: break
      }
      return .none
    }
    .forEach(\.folders, action: \.folders) { Folder() }
  }
}

/// Recursive reducers compile and run: below its first level, each level's body is built when
/// an action first reaches it (Reducer.swift, `_compiled`), as TCA builds `body` per action.
@Suite struct RecursionTests {
  @Test func aTreeOfRowsFiveLevelsDeepThroughForEach() async {
    let store = TestStore(initialState: Row.State(id: 0)) { Row() }
    await store.send(.addRow(id: 1)) { $0.rows = [Row.State(id: 1)] }
    await store.send(.rows(.element(id: 1, action: .addRow(id: 2)))) {
      $0.rows[id: 1]?.rows = [Row.State(id: 2)]
    }
    await store.send(.rows(.element(id: 1, action: .rows(.element(id: 2, action: .addRow(id: 3))))))
    {
      $0.rows[id: 1]?.rows[id: 2]?.rows = [Row.State(id: 3)]
    }
    let third: (Row.Action) -> Row.Action = {
      .rows(
        .element(id: 1, action: .rows(.element(id: 2, action: .rows(.element(id: 3, action: $0))))))
    }
    await store.send(third(.addRow(id: 4))) {
      $0.rows[id: 1]?.rows[id: 2]?.rows[id: 3]?.rows = [Row.State(id: 4)]
    }
    await store.send(third(.rows(.element(id: 4, action: .addRow(id: 5))))) {
      $0.rows[id: 1]?.rows[id: 2]?.rows[id: 3]?.rows[id: 4]?.rows = [Row.State(id: 5)]
    }
    await store.send(
      third(.rows(.element(id: 4, action: .rows(.element(id: 5, action: .rename("leaf"))))))
    ) {
      $0.rows[id: 1]?.rows[id: 2]?.rows[id: 3]?.rows[id: 4]?.rows[id: 5]?.name = "leaf"
    }
  }

  @Test func sheetsFiveDeepThroughThePresentationIfLet() async {
    let store = TestStore(initialState: Sheet.State()) { Sheet() }
    var path: (Sheet.Action) -> Sheet.Action = { $0 }
    var depth = 0
    for _ in 1...5 {
      let at = path
      await store.send(at(.open)) { state in
        Self.modify(&state, depth: depth) { $0.child = Sheet.State(depth: depth + 1) }
      }
      path = { at(.child(.presented($0))) }
      depth += 1
    }
    // The deepest sheet dismisses: its parent sees it, and it is gone.
    let parent = depth - 1
    await store.send(Self.dismiss(at: parent)) { state in
      Self.modify(&state, depth: parent) {
        $0.closed = 1
        $0.child = nil
      }
    }
  }

  /// The sheet at `depth` (0: the root) in `state`, changed by `change`.
  fileprivate static func modify(
    _ state: inout Sheet.State, depth: Int, _ change: (inout Sheet.State) -> Void
  ) {
    guard depth > 0 else { return change(&state) }
    Self.modify(&state.child!, depth: depth - 1, change)
  }

  /// The action that dismisses the child of the sheet at `depth`.
  fileprivate static func dismiss(at depth: Int) -> Sheet.Action {
    var action = Sheet.Action.child(.dismiss)
    for _ in 0..<depth { action = .child(.presented(action)) }
    return action
  }

  @Test func foldersFiveDeepThroughAnUnlabeledScope() async {
    let store = TestStore(initialState: Folder.State(id: 0)) { Folder() }
    var path: (Contents.Action) -> Folder.Action = { .contents($0) }
    var ids: [Int] = []
    for id in 1...5 {
      let at = path
      let parents = ids
      await store.send(at(.addFolder(id: id))) { state in
        Self.modify(&state, along: parents) { $0.contents.folders.append(Folder.State(id: id)) }
      }
      path = { at(.folders(.element(id: id, action: .contents($0)))) }
      ids.append(id)
    }
    await store.send(path(.addFile("deep.txt"))) { state in
      Self.modify(&state, along: ids) { $0.contents.files = ["deep.txt"] }
    }
  }

  /// The folder at the end of `ids` in `state`, changed by `change`.
  fileprivate static func modify(
    _ state: inout Folder.State, along ids: [Int], _ change: (inout Folder.State) -> Void
  ) {
    guard let first = ids.first else { return change(&state) }
    Self.modify(&state.contents.folders[id: first]!, along: Array(ids.dropFirst()), change)
  }
}
